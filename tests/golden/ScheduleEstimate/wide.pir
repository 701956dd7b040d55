// The sums are exact beyond 2^64. With peak_gflops 1 (wide.args) each
// contract of 2^63 - 1 instances at 2 flops takes 2^64 - 2 ns, the most a
// function can take here; two functions make makespan_ns = compute_ns =
// 2 x (2^64 - 2) = 36893488147419103228. Nothing communicates: comm_ns and
// exposed_comm_ns stay 0.
func @f(%x: f32[4]) {
  %a = tensor_contract %x, %x {num_dynamic_instances = 9223372036854775807} : f32[4]
  return %a
}

func @g(%x: f32[4]) {
  %a = tensor_contract %x, %x {num_dynamic_instances = 9223372036854775807} : f32[4]
  return %a
}
