// every name character; keywords are fine as op names
func @a.b$c-d_0(%x.y: f32[], %$: f32[], %-: f32[], %0: f32[], %A-Z_a.z$09: f32[], %...: f32[]) {
  %1 = acme.n %x.y, %$, %-, %0 : f32[]
  %-1 = acme.n %1 : f32[]
  %1e5 = acme.n %-1 : f32[]
  %a.1 = acme.n %1e5 : f32[]
  return %a.1, %A-Z_a.z$09, %...
}

func @0() {
}

func @-() {
}

func @func() {
  %func = func : f32[]
  %attributes = attributes %func : f32[]
  %true = true %attributes : bool[]
}
