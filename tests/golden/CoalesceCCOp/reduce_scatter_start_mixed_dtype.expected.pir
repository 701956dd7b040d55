func @f(%p: f32[2,8], %q: bf16[3,4], %r: f32[1,4], %s: bf16[4,8], %x: f32[2,8]) {
  %a_buf = pack %p, %r {kind = "reduce_scatter", factor = 4, offsets = [0, 4], counts = [4, 1], dimensions = [1, 1]} : f32[20]
  %a_flat_s = reduce_scatter_start %a_buf {group_id = "dp", factor = 4, reduce = "add", dimension = 0, id = 9} : f32[5]
  %b_buf = pack %q, %s {kind = "reduce_scatter", factor = 4, offsets = [0, 3], counts = [3, 8], dimensions = [1, 1]} : bf16[44]
  %b_flat_s = reduce_scatter_start %b_buf {group_id = "dp", factor = 4, reduce = "add", dimension = 0, id = 9} : bf16[11]
  %h = tensor_contract %x, %x : f32[2,8]
  %a_flat = reduce_scatter_done %a_flat_s : f32[5]
  %a, %c = unpack %a_flat {kind = "reduce_scatter", factor = 4, offsets = [0, 4], counts = [4, 1], dimensions = [1, 1]} : (f32[2,2], f32[1,1])
  %b_flat = reduce_scatter_done %b_flat_s : bf16[11]
  %b, %d = unpack %b_flat {kind = "reduce_scatter", factor = 4, offsets = [0, 3], counts = [3, 8], dimensions = [1, 1]} : (bf16[3,1], bf16[4,2])
  affine_store %h, %p
  return %a, %b, %c, %d
}
