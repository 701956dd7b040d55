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
