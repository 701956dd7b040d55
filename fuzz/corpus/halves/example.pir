// one FSDP layer
func @layer0(%x: bf16[128,4096], %wq: bf16[512,4096], %wk: bf16[512,4096],
             %out: f32[128,4096]) {
  %q_w = all_gather %wq {group_id = "dp", factor = 8, fsdp = true} : bf16[4096,4096]
  %k_w = all_gather %wk {group_id = "dp", factor = 8, fsdp = true} : bf16[4096,4096]
  %q = tensor_contract %x, %q_w {domain = [128, 4096, 4096]} : f32[128,4096]
  %t = affine_load %q {domain = [128, 4096], predicate = ["i0 < 100"]} : f32[128,4096]
  affine_store %t, %out {domain = [128, 4096]}
  %a, %b = all_reduce %q, %t {group_id = "tp", factor = 4, reduce = "add"} : (f32[128,4096], f32[128,4096])
  return %a, %b
}
