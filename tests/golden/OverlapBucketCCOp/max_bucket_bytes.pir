// max_bucket_bytes = 32: each gather has 16 result bytes, so a bucket holds
// two: the third candidate closes %a's bucket, and %c starts its own.
func @f(%p: bf16[4], %q: bf16[4], %r: bf16[4], %s: bf16[4]) {
  %a_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %a = all_gather_done %a_s : bf16[8]
  %b_s = all_gather_start %q {group_id = "dp"} : bf16[8]
  %b = all_gather_done %b_s : bf16[8]
  %c_s = all_gather_start %r {group_id = "dp"} : bf16[8]
  %c = all_gather_done %c_s : bf16[8]
  %d_s = all_gather_start %s {group_id = "dp"} : bf16[8]
  %d = all_gather_done %d_s : bf16[8]
  return %a, %b, %c, %d
}
