// leading comment

   // indented comment
func@ws(  %a :f32 [ 2 , 3 ]  ,%b:
   i32[]
)attributes{k=1,	l = [ ] }{// comment after brace
%c=acme.op%a,%b{x=[1,2
,3]}:f32[2,3]// trailing
	%d ,%e = acme.two %c : ( f32[2,3] ,
	  i32[] )
  acme.sink %d , %e   	
  %f
  =
  acme.split
  %d
  :
  f32[2,3]
  acme.sink %f}// after function
func @second ( ) { }func @third(){acme.x}


// trailing comment without newline