func @layer(%x: bf16[8,16], %w0: bf16[2,16], %w1: bf16[2,16], %w2: bf16[1,16]) {
  %a, %b, %c = all_gather %w0, %w1, %w2 {group_id = "dp", factor = 4, id = 10, fsdp = true} : (bf16[8,16], bf16[8,16], bf16[4,16])
  %y = tensor_contract %x, %a {domain = [8, 16, 16]} : f32[8,16]
  %z = tensor_contract %y, %b : f32[8,16]
  return %z, %c
}
