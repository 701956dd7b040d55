func @a(%x: f32[1000], %buf: f32[10000]) {
  %c = tensor_contract %x, %x {num_dynamic_instances = 4000000} : f32[1000]
  %g = all_gather %c {group_id = "dp", factor = 8} : f32[8000]
  %l = affine_load %buf {num_dynamic_instances = 10000} : f32[1000]
  return %l, %g
}

func @b(%y: bf16[800]) {
  %r = all_reduce %y {reduce = "add"} : bf16[800]
  %s = reduce_scatter %r {group_id = "tp", factor = 4, reduce = "add"} : bf16[200]
  %m = acme.op %s {flops = 3} : bf16[200]
  return %m
}
