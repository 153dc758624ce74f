! A Fortran consumer of an installed tridi (tests/install/run.sh): `use tridi`
! from the installed module, a solve along the second dimension of a 3-D
! array with constant diagonals, checked by the residual of every equation.
program consumer
  use tridi
  implicit none
  integer, parameter :: nx = 7, ny = 33, nz = 5
  real(8) :: u(nx, ny, nz), d(nx, ny, nz), r
  integer :: ierr, j

  call random_number(d)
  u = d
  ! -x(j-1) + 4 x(j) - x(j+1) = d(j) along j, for every i and k
  call tridi_solve(-1d0, 4d0, -1d0, u, dim=2, stat=ierr)
  if (ierr /= TRIDI_SUCCESS) then
     print '(a)', 'consumer (Fortran): tridi_solve failed: ' // tridi_last_error()
     error stop 1
  end if
  r = 0
  do j = 1, ny
     r = max(r, maxval(abs(4 * u(:, j, :) - d(:, j, :) &
          - merge(u(:, max(j - 1, 1), :), 0d0, j > 1) &
          - merge(u(:, min(j + 1, ny), :), 0d0, j < ny))))
  end do
  print '(a,es9.2)', 'consumer (Fortran): largest residual ', r
  if (r > 1d-14) error stop 1
end program consumer
