! Without stat=, a failing call stops the program with the reason (as a
! Fortran ALLOCATE does): CTest expects the status name in the output.
program error_stop
  use tridi
  implicit none
  real(8) :: x(4, 3)
  x = 1
  call tridi_solve(1d0, 4d0, 1d0, x, dim=3)
  print '(a)', 'not reached'
end program error_stop
