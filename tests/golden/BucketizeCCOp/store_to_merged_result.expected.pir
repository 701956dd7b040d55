func @f(%p: bf16[2], %q: bf16[2], %r: bf16[2], %g: bf16[8], %v: bf16[4]) {
  %a, %b = all_gather %p, %q {group_id = "dp", factor = 2} : (bf16[4], bf16[4])
  %s = reduce_scatter %g {group_id = "dp", factor = 2, reduce = "add"} : bf16[4]
  affine_store %v, %a
  %c = all_gather %r {group_id = "dp", factor = 4} : bf16[8]
  %t2 = reduce_scatter %a {group_id = "dp", factor = 2, reduce = "add"} : bf16[2]
  return %s, %b, %c, %t2
}
