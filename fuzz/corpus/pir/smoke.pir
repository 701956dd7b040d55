// The example of check_smoke.c (now retired): already canonical, so its
// .expected is the file itself.
func @layer0(%x: bf16[128,4096], %wq: bf16[512,4096]) {
  %q_w = all_gather %wq {group_id = "dp", factor = 8, fsdp = true} : bf16[4096,4096]
  %q = tensor_contract %x, %q_w {domain = [128, 4096, 4096]} : f32[128,4096]
  return %q
}
