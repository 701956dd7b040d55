// every dtype: arguments, scalars, a tuple of all, and odd shapes
func @dtypes(%bool: bool[2], %i8: i8[2], %u8: u8[2], %f8e4m3: f8e4m3[2], %f8e5m2: f8e5m2[2], %i16: i16[2], %u16: u16[2], %f16: f16[2], %bf16: bf16[2], %i32: i32[2], %u32: u32[2], %f32: f32[2], %i64: i64[2], %u64: u64[2], %f64: f64[2]) {
  %s_bool = acme.scalar %bool : (bool[])
  %s_i8 = acme.scalar %i8 : i8[]
  %s_u8 = acme.scalar %u8 : u8[]
  %s_f8e4m3 = acme.scalar %f8e4m3 : f8e4m3[]
  %s_f8e5m2 = acme.scalar %f8e5m2 : f8e5m2[]
  %s_i16 = acme.scalar %i16 : i16[]
  %s_u16 = acme.scalar %u16 : u16[]
  %s_f16 = acme.scalar %f16 : f16[]
  %s_bf16 = acme.scalar %bf16 : bf16[]
  %s_i32 = acme.scalar %i32 : i32[]
  %s_u32 = acme.scalar %u32 : u32[]
  %s_f32 = acme.scalar %f32 : f32[]
  %s_i64 = acme.scalar %i64 : i64[]
  %s_u64 = acme.scalar %u64 : u64[]
  %s_f64 = acme.scalar %f64 : f64[]
  %t_bool, %t_i8, %t_u8, %t_f8e4m3, %t_f8e5m2, %t_i16, %t_u16, %t_f16, %t_bf16, %t_i32, %t_u32, %t_f32, %t_i64, %t_u64, %t_f64 = acme.all_dtypes : (bool[3,1], i8[3,1], u8[3,1], f8e4m3[3,1], f8e5m2[3,1], i16[3,1], u16[3,1], f16[3,1], bf16[3,1], i32[3,1], u32[3,1], f32[3,1], i64[3,1], u64[3,1], f64[3,1])
  %zero = acme.zero_extent : f32[ 0 , 3 ]
  %rank64 = acme.rank64 : u8[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]
  %big = acme.big : u8[9223372036854775807]
}
