! One plan, many solves: the same matrix (rank-1 diagonals along dimension 1)
! for 32 right-hand sides, solved 10 times with new data; info says which
! systems broke down, if any.
program plan_reuse
  use, intrinsic :: iso_c_binding, only: c_int32_t
  use tridi
  implicit none
  integer, parameter :: n = 100, m = 32
  real(8) :: a(n), b(n), c(n), d(n, m), x(n, m)
  integer(c_int32_t) :: info(m)
  type(tridi_plan) :: plan
  character(len=32) :: alg
  integer :: ierr, step

  a = -1
  b = 2.5d0
  c = -1
  d = 0
  call tridi_plan_create(plan, a, b, c, d, x, dim=1, stat=ierr)
  if (ierr /= TRIDI_SUCCESS) error stop 'tridi_plan_create failed'
  call tridi_plan_describe(plan, alg=alg)
  print '(a)', 'algorithm: ' // trim(alg)

  do step = 1, 10
     call random_number(d)
     call tridi_plan_execute(plan, a, b, c, d, x, stat=ierr, info=info)
     if (ierr /= TRIDI_SUCCESS) then
        print '(a,i0,a)', 'step ', step, ': ' // tridi_last_error()
        print '(a,*(i0,1x))', 'systems that broke down: ', pack([(ierr, ierr = 1, m)], info /= 0)
        error stop 1
     end if
  end do
  print '(a,es10.3)', 'x(1, 1) = ', x(1, 1)
  call tridi_plan_destroy(plan)
end program plan_reuse
