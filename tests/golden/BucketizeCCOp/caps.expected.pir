func @below(%p: bf16[4], %q: bf16[4], %r: bf16[4]) {
  %a, %b = all_gather %p, %q {group_id = "dp", factor = 4} : (bf16[16], bf16[16])
  %c = all_gather %r {group_id = "dp", factor = 4} : bf16[16]
  return %a, %b, %c
}

func @equal(%p: f32[2], %q: bf16[4]) {
  %a, %b = all_gather %p, %q {group_id = "dp", factor = 4} : (f32[8], bf16[16])
  return %a, %b
}

func @above(%p: bf16[2], %q: bf16[2]) {
  %a, %b = all_gather %p, %q {group_id = "dp", factor = 4} : (bf16[8], bf16[8])
  return %a, %b
}

func @single(%p: f32[8], %q: bf16[2], %r: bf16[2]) {
  %d = all_gather %p {group_id = "dp", factor = 4} : f32[32]
  %e, %f = all_gather %q, %r {group_id = "dp", factor = 4} : (bf16[8], bf16[8])
  return %d, %e, %f
}
