// Starts and dones count as collectives: 0 flops by default, and no bytes
// moved (neither is a load or a store); a flops attribute counts as on any
// instruction. n = num_dynamic_instances where given, else the element
// count of result 0.
//   %g_s all_gather_start, f32[16]                  0 x 16   = 0
//   %g all_gather_done, f32[16]                     0 x 16   = 0
//   %r_s reduce_scatter_start, n = 1000             0 x 1000 = 0
//   %r reduce_scatter_done, n = 1000                0 x 1000 = 0
//   %a_s all_reduce_start, flops 3, n = 5           3 x 5    = 15
//   %a all_reduce_done, flops 7, f32[8]             7 x 8    = 56
//   %c tensor_contract, f32[4,4]                    2 x 16   = 32
//   return                                          0
// Total_flops = 15 + 56 + 32 = 103
// Total_bytes_moved: only the affine_store, n = 10, f32: 10 x 4 = 40
func @f(%x: f32[8], %y: f32[8], %m: f32[4,4], %buf: f32[4,4]) {
  %g_s = all_gather_start %x {group_id = "dp", factor = 2} : f32[16]
  %r_s = reduce_scatter_start %y {group_id = "dp", factor = 2, reduce = "add", num_dynamic_instances = 1000} : f32[4]
  %c = tensor_contract %m, %m : f32[4,4]
  %g = all_gather_done %g_s : f32[16]
  %r = reduce_scatter_done %r_s {num_dynamic_instances = 1000} : f32[4]
  affine_store %c, %buf {num_dynamic_instances = 10}
  %a_s = all_reduce_start %x {group_id = "tp", factor = 2, reduce = "add", flops = 3, num_dynamic_instances = 5} : f32[8]
  %a = all_reduce_done %a_s {flops = 7} : f32[8]
  return %g, %r, %a
}
