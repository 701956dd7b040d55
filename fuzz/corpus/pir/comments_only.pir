// an empty module: nothing but comments
   // and white space

