// %a is exposed; %k hides half of %c; %k2 hides %d, an all-reduce of the
// same process group started at 1. Positions: c_s 0, d_s 1, a_s 2, a 3,
// k 4, c 5, k2 6, d 7. %a_s's bucket takes %c_s:
//  1. (a_s, c): %c_s would move later, past %d_s, whose execution (1, 7)
//     would then enclose the bucket's hiding interval (2, 4): the bucket
//     would wait behind %d on the stream;
//  2. (a_s, a): %c's hiding node 4 would fall outside (2, 3);
//  3. (c_s, c): %a_s moves earlier, to 0, before %d_s: taken.
// Exposed 3000 before (%a waits behind %c and %d), 500 after.
func @f(%p: bf16[4], %q: bf16[4], %e: f32[4], %x: f32[4]) {
  %c_s = all_gather_start %q {group_id = "dp"} : bf16[8]
  %d_s = all_reduce_start %e {group_id = "dp", reduce = "add"} : f32[4]
  %a_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %a = all_gather_done %a_s : bf16[8]
  %k = acme.work %x {num_dynamic_instances = 1, flops = 500} : f32[4]
  %c = all_gather_done %c_s : bf16[8]
  %k2 = acme.work %x {num_dynamic_instances = 1, flops = 1000} : f32[4]
  %d = all_reduce_done %d_s : f32[4]
  return %a, %c, %d, %k, %k2
}
