// ScheduleEstimate with the fusion model forced on (fused.args:
// peak_gflops 1000, memory_gbps 100, latency_ns 50, link_gbps 100,
// kernel_floor_ns 7): a kernel of F flops and B bytes takes
// max(ceil(F / 1000), ceil(B / 100)) + 7 ns.
// @add is the reducer of %r: its work is in %r's kernel, it takes no time.
// @step, kernels in order of their first instruction:
//   0 {%m %r %n} (the reduce of the last dimension takes its producer and
//     its consumer): reads %x 128, writes %n 16: 144 bytes; flops
//     32 + 4 + 4 = 40; 2 + 7 = 9 ns, charged at %n: [0,9).
//   1 {%d}: reads %x 128 and %w 256, writes %d 128 (the all-reduce reads
//     it): 512 bytes; flops 4 x 8 x 8 x 2 = 512; 6 + 7 = 13 ns: [9,22).
//   %g all_reduce, F = 2, 128 operand bytes: 50 + ceil(2 x 128 / 200) =
//     52 ns, [22,74), exposed whole.
//   2 {%e}: reads %g 128, writes %e 128: 256 bytes; flops 32; 3 + 7 = 10
//     ns: [74,84).
//   makespan 84, compute 9 + 13 + 10 = 32, comm 52, exposed 52; kernels 3,
//   bytes 144 + 512 + 256 = 912; exposed_floor_ns 52 - 32 = 20.
// Op by op (HLO ops by their roofline over operand and result bytes): %c
// 0 (a constant), %m 384 bytes -> 4, %r 148 -> 2, %n 32 -> 1, %d 512
// flops -> 1, %g 52, %e 256 bytes -> 3: makespan 63.
// peak_bytes 660 at %g: arguments 384, constant %c 4, %n 16, %d 128, %g 128.
func @add(%a: f32[], %b: f32[]) {
  %s = hlo.add %a, %b : f32[]
  return %s
}

func @step(%x: f32[4,8], %w: f32[8,8]) {
  %c = hlo.constant {hlo_constant = "0"} : f32[]
  %m = hlo.multiply %x, %x : f32[4,8]
  %r = hlo.reduce %m, %c {hlo_dimensions = "{1}", hlo_to_apply = "%add"} : f32[4]
  %n = hlo.negate %r : f32[4]
  %d = tensor_contract %x, %w {domain = [4, 8, 8]} : f32[4,8]
  %g = all_reduce %d {factor = 2, group_id = "dp"} : f32[4,8]
  %e = hlo.exponential %g : f32[4,8]
  return %n, %e
}
