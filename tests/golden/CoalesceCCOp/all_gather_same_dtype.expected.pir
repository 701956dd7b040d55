func @f(%w0: bf16[2,4], %w1: bf16[3]) {
  %a_buf = pack %w0, %w1 {kind = "all_gather", factor = 4, offsets = [0, 8], counts = [8, 3], dimensions = [0, 0]} : bf16[11]
  %a_flat = all_gather %a_buf {group_id = "dp", factor = 4, id = 5, fsdp = true} : bf16[44]
  %a, %b = unpack %a_flat {kind = "all_gather", factor = 4, offsets = [0, 8], counts = [8, 3], dimensions = [0, 0]} : (bf16[8,4], bf16[12])
  %u = tensor_contract %a, %b : bf16[8,4]
  return %u
}
