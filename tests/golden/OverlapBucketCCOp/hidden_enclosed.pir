// %b (a reduce-scatter of the same process group) is hidden by %h, %d (an
// all-reduce) by %k, which also hides half of %c. Positions: a_s 0, a 1,
// b_s 2, h 3, b 4, d_s 5, c_s 6, k 7, c 8, d 9. %a is exposed, %c half
// hidden, so %a's bucket takes %c as a candidate:
//  1. (a_s, c): the bucket would run from 0 to 8 and enclose %b's hiding
//     interval (2, 3): %b would wait for the bucket on the stream;
//  2. (a_s, a): %c's hiding node 7 would fall outside (0, 1);
//  3. (c_s, c): %d's execution (5, 9) would enclose the bucket's own
//     hiding interval (6, 7);
//  4. (c_s, a): 7 outside (6, 1).
// Every other check would accept the first placement. Nothing changes;
// exposed 1000 (a) + 500 (c) before and after.
func @f(%p: bf16[4], %r: bf16[4], %g: f32[8], %e: f32[4], %x: f32[4]) {
  %a_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %a = all_gather_done %a_s : bf16[8]
  %b_s = reduce_scatter_start %g {group_id = "dp", reduce = "add"} : f32[4]
  %h = acme.work %x {num_dynamic_instances = 1, flops = 1000} : f32[4]
  %b = reduce_scatter_done %b_s : f32[4]
  %d_s = all_reduce_start %e {group_id = "dp", reduce = "add"} : f32[4]
  %c_s = all_gather_start %r {group_id = "dp"} : bf16[8]
  %k = acme.work %x {num_dynamic_instances = 1, flops = 1500} : f32[4]
  %c = all_gather_done %c_s : bf16[8]
  %d = all_reduce_done %d_s : f32[4]
  return %a, %b, %c, %d, %h, %k
}
