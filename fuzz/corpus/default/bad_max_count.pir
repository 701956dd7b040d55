// -O BucketizeCCOp.max_count=-1 is below the option's minimum 0: the host
// rejects the pipeline before reading the input (exit 1, nothing written).
func @f(%p: bf16[2]) {
  %a = all_gather %p {group_id = "dp", factor = 2} : bf16[4]
  return %a
}
