// passline --compare honours pinned collectives, loops and the cost
// model's presets (tests/compare.sh). A loop of 3 trips (a counter from 0,
// plus 1 per trip, compared LT 3) whose body gathers three FSDP weights of
// one key: the first two may merge; the third is pinned (an HLO control
// dependency) and must stay as it is under every strategy. The entry
// reduces the loop's result.
func @add_red(%a: f32[], %b: f32[]) {
  %s = hlo.add %a, %b : f32[]
  return %s
}

func @body(%i: i32[], %x: f32[16], %w0: bf16[64,256], %w1: bf16[64,256], %wp: bf16[64,256]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %a = all_gather %w0 {group_id = "dp", factor = 4, fsdp = true} : bf16[256,256]
  %b = all_gather %w1 {group_id = "dp", factor = 4, fsdp = true} : bf16[256,256]
  %p = all_gather %wp {group_id = "dp", factor = 4, fsdp = true, pinned = true} : bf16[256,256]
  %y = tensor_contract %x, %x {domain = [2048, 4096]} : f32[16]
  return %n, %y, %w0, %w1, %wp
}

func @cond(%i: i32[], %x: f32[16], %w0: bf16[64,256], %w1: bf16[64,256], %wp: bf16[64,256]) {
  %c = hlo.constant {hlo_constant = "3"} : i32[]
  %q = hlo.compare %i, %c {hlo_direction = "LT"} : bool[]
  return %q
}

func @main(%x: f32[16], %w0: bf16[64,256], %w1: bf16[64,256], %wp: bf16[64,256]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %l$0, %l$1, %l$2, %l$3, %l$4 = hlo.while %z, %x, %w0, %w1, %wp {hlo_body = "body", hlo_condition = "cond"} : (i32[], f32[16], bf16[64,256], bf16[64,256], bf16[64,256])
  %r = all_reduce %l$1 {group_id = "tp", factor = 2, reduce = "add", hlo_to_apply = "add_red"} : f32[16]
  return %r
}
