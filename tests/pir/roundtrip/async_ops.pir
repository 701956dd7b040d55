// every asynchronous collective op in a valid use: starts with their
// attributes, work while they are in flight, dones that take all results
func @async(%x: f32[128,512], %w: bf16[64,512], %s: f32[], %g: f32[512,512], %buf: f32[128,512]) {
  %w_s = all_gather_start %w {group_id = "dp", factor = 8, fsdp = true, id = 1} : bf16[512,512]
  %gr_s, %xr_s = reduce_scatter_start %g, %x {group_id = "dp", factor = 4, reduce = "add", dimension = 1} : (f32[512,128], f32[128,128])
  %h = tensor_contract %x, %g {domain = [128, 512, 512]} : f32[128,512]
  affine_store %h, %buf {domain = [128, 512]}
  %wf = all_gather_done %w_s : bf16[512,512]
  %ar_s, %as_s = all_reduce_start %h, %s {group_id = "tp", factor = 2, reduce = "max"} : (f32[128,512], f32[])
  %gr, %xr = reduce_scatter_done %gr_s, %xr_s : (f32[512,128], f32[128,128])
  %ar, %as = all_reduce_done %ar_s, %as_s : (f32[128,512], f32[])
  return %wf, %gr, %xr, %ar, %as
}
