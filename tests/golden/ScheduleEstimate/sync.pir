// ScheduleEstimate under the exact integer model, its four keys at their
// defaults set in sync.args (peak_gflops 400000, memory_gbps 2000,
// link_gbps 100, latency_ns 10000); every division rounds up.
// Synchronous collectives expose all of their time.
// @a: %c 2 flops x 4000000 / 400000 = 20, [0,20);
//     %g all_gather f32[1000] -> f32[8000], F = 8, 32000 result bytes:
//        10000 + ceil(7 x 32000 / (8 x 100)) = 10000 + 280 = 10280,
//        [20,10300), exposed 10280;
//     %l 10000 x 4 bytes / 2000 = 20, [10300,10320).
//     makespan 10320, compute 40, comm 10280, exposed 10280.
// @b: %r all_reduce without factor or group_id: W = 0, the latency alone,
//        [0,10000), exposed 10000;
//     %s reduce_scatter bf16[800] -> bf16[200] on "tp", F = 4, 1600
//        operand bytes: 10000 + ceil(3 x 1600 / 400) = 10012, another
//        stream than %r's but C is 10000: [10000,20012), exposed 10012;
//     %m 3 flops x 200 elements / 400000 -> 1, [20012,20013).
//     makespan 20013, compute 1, comm 20012, exposed 20012.
// Sums: makespan_ns 30333, compute_ns 41, comm_ns 30292,
// exposed_comm_ns 30292. exposed_floor_ns, the busiest stream minus the
// computation, per function: @a 10280 - 40 = 10240, @b "tp"'s 10012 - 1 =
// 10011 (the stream without a group carries 10000): 20251.
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
