// A byte cap takes B, KiB, MiB or GiB; "64MB" is rejected with exit 1.
func @f(%p: bf16[2]) {
  %a = all_gather %p {group_id = "dp", factor = 2} : bf16[4]
  return %a
}
