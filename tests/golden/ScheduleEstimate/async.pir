// ScheduleEstimate of asynchronous collectives, under the cost model of
// async.args: peak_gflops 1000, memory_gbps 100, link_gbps 10,
// latency_ns 50. A contract of n instances takes 2n / 1000 ns; a gather of
// f32[100] to f32[400] (F = 4, 1600 result bytes) 50 + 3 x 1600 / 40 =
// 170; an all-reduce of f32[100] (F = 2, 400 operand bytes)
// 50 + 2 x 400 / 20 = 90. A start leaves the compute clock C alone; its
// done waits until the start's end.
// @hidden: %s [0,170) on dp; %a 200000 / 1000 = 200, [0,200); the done at
//   200 waits for nothing; %b [200,210).
//   makespan 210, compute 210, comm 170, exposed 0.
// @partly: %s [0,170); %a 100, [0,100); the done waits [100,170): 70;
//   %b [170,180). makespan 180, compute 110, comm 170, exposed 70.
// @two_groups: %s1 [0,170) on dp, %s2 [0,90) on tp; %a 50, [0,50); %d2
//   waits [50,90): 40; %d1 waits [90,170): 80.
//   makespan 170, compute 50, comm 260, exposed 120.
// @busy: %s1 [0,170) on dp; %s2 waits for the dp stream: [170,340); %a
//   [0,200); %d1 at 200 waits for nothing; %d2 waits [200,340): 140.
//   makespan 340, compute 200, comm 340, exposed 140.
// Sums: makespan_ns 210 + 180 + 170 + 340 = 900, compute_ns 210 + 110 + 50
// + 200 = 570, comm_ns 170 + 170 + 260 + 340 = 940, exposed_comm_ns
// 0 + 70 + 120 + 140 = 330. exposed_floor_ns, the busiest stream minus the
// computation, per function: 170 - 210 < 0 so 0, 170 - 110 = 60, dp's
// 170 - 50 = 120, dp's 340 - 200 = 140: 320.
func @hidden(%x: f32[100], %w: f32[100]) {
  %s = all_gather_start %x {group_id = "dp", factor = 4} : f32[400]
  %a = tensor_contract %x, %w {num_dynamic_instances = 100000} : f32[100]
  %g = all_gather_done %s : f32[400]
  %b = tensor_contract %g, %w {num_dynamic_instances = 5000} : f32[100]
  return %a, %b
}

func @partly(%x: f32[100], %w: f32[100]) {
  %s = all_gather_start %x {group_id = "dp", factor = 4} : f32[400]
  %a = tensor_contract %x, %w {num_dynamic_instances = 50000} : f32[100]
  %g = all_gather_done %s : f32[400]
  %b = tensor_contract %g, %w {num_dynamic_instances = 5000} : f32[100]
  return %a, %b
}

func @two_groups(%x: f32[100], %y: f32[100], %w: f32[100]) {
  %s1 = all_gather_start %x {group_id = "dp", factor = 4} : f32[400]
  %s2 = all_reduce_start %y {group_id = "tp", factor = 2, reduce = "add"} : f32[100]
  %a = tensor_contract %x, %w {num_dynamic_instances = 25000} : f32[100]
  %d2 = all_reduce_done %s2 : f32[100]
  %d1 = all_gather_done %s1 : f32[400]
  return %a, %d1, %d2
}

func @busy(%x: f32[100], %y: f32[100], %w: f32[100]) {
  %s1 = all_gather_start %x {group_id = "dp", factor = 4} : f32[400]
  %s2 = all_gather_start %y {group_id = "dp", factor = 4} : f32[400]
  %a = tensor_contract %x, %w {num_dynamic_instances = 100000} : f32[100]
  %d1 = all_gather_done %s1 : f32[400]
  %d2 = all_gather_done %s2 : f32[400]
  return %a, %d1, %d2
}
