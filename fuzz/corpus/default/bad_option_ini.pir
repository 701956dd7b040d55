// An INI pipeline (bad_option.ini) with a bad max_count (-1, below the
// minimum 0) and a misspelt key: both are reported with file:line, exit 1,
// before the input is read.
func @f(%p: bf16[2]) {
  %a = all_gather %p {group_id = "dp", factor = 2} : bf16[4]
  return %a
}
