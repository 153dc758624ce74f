! Solve along the second dimension of the interior of a 3-D grid with a
! halo, in place, with constant diagonals: tridi reads and writes the section
! u(1:nx, :, 1:nz) where it is (no copy) and never touches the halo.
program sections
  use tridi
  implicit none
  integer, parameter :: nx = 6, ny = 5, nz = 4
  real(8) :: u(0:nx + 1, ny, 0:nz + 1), d(nx, ny, nz), r
  integer :: ierr, j

  call random_number(u)
  d = u(1:nx, :, 1:nz)
  ! -x(j-1) + 4 x(j) - x(j+1) = d(j) along j, for every i and k
  call tridi_solve(-1d0, 4d0, -1d0, u(1:nx, :, 1:nz), dim=2, stat=ierr)
  if (ierr /= TRIDI_SUCCESS) then
     print '(a)', 'tridi_solve failed: ' // tridi_last_error()
     error stop 1
  end if

  ! the residual of every equation
  r = 0
  do j = 1, ny
     r = max(r, maxval(abs(4 * u(1:nx, j, 1:nz) - d(:, j, :) &
          - merge(u(1:nx, max(j - 1, 1), 1:nz), 0d0, j > 1) &
          - merge(u(1:nx, min(j + 1, ny), 1:nz), 0d0, j < ny))))
  end do
  print '(a,es9.2)', 'largest residual: ', r
  if (r > 1d-14) error stop 1
end program sections
