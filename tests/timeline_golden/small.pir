// A small function whose schedule is easy to compute by hand with the
// cost model of small.ini (1 FLOP, 1 byte and 1 wire byte per ns, no
// latency): see small.svg.
func @small(%a: f32[20,20], %b: f32[20,20], %w: f32[128], %v: f32[50]) {
  %g_s = all_gather_start %w {group_id = "dp", factor = 2} : f32[256]
  %c = tensor_contract %a, %b {domain = [20, 20]} : f32[20,20]
  %g = all_gather_done %g_s : f32[256]
  %r = all_reduce %v {group_id = "t<p>", factor = 2, reduce = "add"} : f32[50]
  %l = affine_load %c {domain = [10, 10]} : f32[10,10]
  %s_s = reduce_scatter_start %g {group_id = "dp", factor = 2, reduce = "add"} : f32[128]
  %x = reduce %l {domain = [10, 10]} : f32[10]
  %s = reduce_scatter_done %s_s : f32[128]
  %t1 = acme.tiny %x {flops = 1, num_dynamic_instances = 1} : f32[10]
  %t2 = acme.tiny %t1 {flops = 1, num_dynamic_instances = 1} : f32[10]
  %t3 = acme.tiny %t2 {flops = 1, num_dynamic_instances = 1} : f32[10]
  %z = acme.gelu %t3 : f32[165]
  return %z, %r, %s
}

// Shorter: not the one drawn unless asked for.
func @other(%p: f32[4]) {
  %q = acme.gelu %p : f32[4]
  return %q
}
