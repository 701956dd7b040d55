// A store into a member's result still counts once that member is merged:
// %a and %b merge (flushed by %c's factor), so %a is then defined above %s.
// %t2 reads %a, which the affine_store wrote after the reduce_scatter run
// started at %s: it must flush, not merge into %s's place before the store.
func @f(%p: bf16[2], %q: bf16[2], %r: bf16[2], %g: bf16[8], %v: bf16[4]) {
  %a = all_gather %p {group_id = "dp", factor = 2} : bf16[4]
  %s = reduce_scatter %g {group_id = "dp", factor = 2, reduce = "add"} : bf16[4]
  affine_store %v, %a
  %b = all_gather %q {group_id = "dp", factor = 2} : bf16[4]
  %c = all_gather %r {group_id = "dp", factor = 4} : bf16[8]
  %t2 = reduce_scatter %a {group_id = "dp", factor = 2, reduce = "add"} : bf16[2]
  return %s, %b, %c, %t2
}
