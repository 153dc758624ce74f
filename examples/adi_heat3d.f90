!> adi_heat3d (Fortran): the 3-D heat equation u_t = nu Laplacian(u) on the
!> unit cube, zero Dirichlet boundaries, with the Douglas ADI scheme and the
!> Fortran module of tridi; the Fortran twin of examples/adi_heat3d.c (see
!> docs/examples.md for the scheme and docs/fortran.md for the module).
!>
!> The grid is one Fortran array u(ld, ny, nz), ld = nx + pad, whose interior
!> u(1:nx, :, :) holds the unknowns (the pad, NaN, must never be written).  Each
!> step solves (I - dt nu/2 D_k) w = w along dimension 1 (X), 2 (Y) and 3 (Z) of
!> the section w(1:nx, :, :), in place, with three plans made once; the
!> diagonals are rank-1 arrays along each dimension (one matrix for every
!> grid line).  The result is checked against the exact solution
!> exp(-3 pi^2 nu t) sin(pi x) sin(pi y) sin(pi z) and the scheme's modal
!> prediction, as in the C example.
!>
!>   adi_heat3d_f [--n N] [--nx N --ny N --nz N] [--pad P] [--steps S] [--nu NU]
!>                [--dt DT] [--threads T] [--check]
program adi_heat3d_f
  use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan, ieee_is_nan
  use tridi
  implicit none
  integer, parameter :: dp = kind(1d0)
  real(dp), parameter :: pi = acos(-1.0_dp)
  integer :: nx = 32, ny = 32, nz = 32, pad = 0, steps = 10, threads = 0
  real(dp) :: nu = 1, dt = 0
  logical :: check = .false.
  real(dp), allocatable :: u(:,:,:), w(:,:,:), coef(:,:,:)
  type(tridi_plan) :: plan(3)
  integer :: n(3), ld, step, k, stat
  real(dp) :: h(3), r(3), t0, t1, solve_s(3), rest_s
  integer(8) :: clock_rate
  character(len=32) :: alg

  call parse_args()
  n = [nx, ny, nz]
  h = 1.0_dp / (n + 1)
  if (dt <= 0) dt = minval(h) / 10
  r = nu * dt / h**2
  ld = nx + pad
  allocate (u(ld, ny, nz), w(ld, ny, nz), coef(maxval(n), 3, 3))
  call initial(u)
  w = ieee_value(1.0_dp, ieee_quiet_nan)
  w(1:nx, :, :) = 0

  ! one matrix per direction: a = c = -r/2, b = 1 + r (a(1), c(n) unused)
  do k = 1, 3
     coef(1:n(k), 1, k) = -0.5_dp * r(k)
     coef(1:n(k), 2, k) = 1 + r(k)
     coef(1:n(k), 3, k) = -0.5_dp * r(k)
     call tridi_plan_create(plan(k), coef(1:n(k), 1, k), coef(1:n(k), 2, k), &
          coef(1:n(k), 3, k), w(1:nx, :, :), dim=k, threads=threads, stat=stat)
     call must(stat, 'tridi_plan_create')
  end do

  print '(a)', 'adi_heat3d_f: u_t = nu Laplacian(u) on the unit cube, Douglas ADI, tridi from Fortran'
  print '(a,3(i0,1x),a,i0,a)', 'grid        ', n, '(x, y, z), row length ', ld, ', real(8)'
  print '(a,es10.3,a,i0,a,es10.3)', 'time        dt = ', dt, ', steps = ', steps, ', T = ', steps * dt
  do k = 1, 3
     call tridi_plan_describe(plan(k), alg=alg)
     print '(a,i0,a,a)', 'plan dim=', k, '  ', trim(alg)
  end do

  solve_s = 0
  rest_s = 0
  call system_clock(count_rate=clock_rate)
  do step = 1, steps
     t0 = wall()
     call rhs(u, w)
     t1 = wall()
     rest_s = rest_s + (t1 - t0)
     do k = 1, 3
        t0 = wall()
        call tridi_plan_execute(plan(k), coef(1:n(k), 1, k), coef(1:n(k), 2, k), &
             coef(1:n(k), 3, k), w(1:nx, :, :), stat=stat)   ! in place
        call must(stat, 'tridi_plan_execute')
        t1 = wall()
        solve_s(k) = solve_s(k) + (t1 - t0)
     end do
     t0 = wall()
     u(1:nx, :, :) = u(1:nx, :, :) + w(1:nx, :, :)
     t1 = wall()
     rest_s = rest_s + (t1 - t0)
  end do
  do k = 1, 3
     call tridi_plan_destroy(plan(k))
  end do
  print '(a,3f10.4,a,f10.4)', 'wall ms per step: X/Y/Z solves', 1d3 * solve_s / steps, &
       ', the rest', 1d3 * rest_s / steps
  call analyse()
  deallocate (u, w, coef)   ! the main program's arrays are not freed at its end

contains

  real(dp) function wall()
    integer(8) :: count
    call system_clock(count)
    wall = real(count, dp) / real(clock_rate, dp)
  end function wall

  subroutine must(stat, what)
    integer, intent(in) :: stat
    character(len=*), intent(in) :: what
    if (stat /= TRIDI_SUCCESS) then
       print '(a)', 'adi_heat3d_f: ' // what // ' failed: ' // tridi_status_name(stat) // &
            ': ' // tridi_last_error()
       error stop 1
    end if
  end subroutine must

  subroutine initial(u)
    real(dp), intent(out) :: u(:,:,:)
    integer :: i, j, kk
    u = ieee_value(1.0_dp, ieee_quiet_nan)
    do kk = 1, nz
       do j = 1, ny
          do i = 1, nx
             u(i, j, kk) = sin(pi * i * h(1)) * sin(pi * j * h(2)) * sin(pi * kk * h(3))
          end do
       end do
    end do
  end subroutine initial

  !> w = dt nu (D_x + D_y + D_z) u on the interior (zero boundary values:
  !> a neighbour outside the interior contributes nothing)
  subroutine rhs(u, w)
    real(dp), intent(in) :: u(:,:,:)
    real(dp), intent(inout) :: w(:,:,:)
    w(1:nx, :, :) = -2 * sum(r) * u(1:nx, :, :)
    w(2:nx, :, :) = w(2:nx, :, :) + r(1) * u(1:nx - 1, :, :)
    w(1:nx - 1, :, :) = w(1:nx - 1, :, :) + r(1) * u(2:nx, :, :)
    w(1:nx, 2:ny, :) = w(1:nx, 2:ny, :) + r(2) * u(1:nx, 1:ny - 1, :)
    w(1:nx, 1:ny - 1, :) = w(1:nx, 1:ny - 1, :) + r(2) * u(1:nx, 2:ny, :)
    w(1:nx, :, 2:nz) = w(1:nx, :, 2:nz) + r(3) * u(1:nx, :, 1:nz - 1)
    w(1:nx, :, 1:nz - 1) = w(1:nx, :, 1:nz - 1) + r(3) * u(1:nx, :, 2:nz)
  end subroutine rhs

  !> error against the exact solution, the modal prediction and the order bound
  !> (the formulas of analyse() in examples/adi_heat3d.c)
  subroutine analyse()
    real(dp) :: t_end, exact_amp, z(3), g, predicted, smax, bound, rounding, err, tol
    real(dp) :: c_space, c_time, e
    integer :: i, j, kk
    logical :: ok_bound, ok_modal, ok_pad
    t_end = steps * dt
    exact_amp = exp(-3 * pi**2 * nu * t_end)
    z = -4 * r * sin(0.5_dp * pi * h)**2
    g = 1 + sum(z) / product(1 - 0.5_dp * z)
    smax = product(sin(pi * ((n - 1) / 2 + 1) * h))
    predicted = abs(g**steps - exact_amp) * smax
    c_space = nu * t_end * pi**4 / 12 * sum(h**2)
    c_time = t_end * 4.5_dp * (nu * pi**2)**3 * dt**2
    rounding = 1000 * epsilon(1.0_dp) * (steps + 1)
    bound = 2 * exact_amp * (c_space + c_time) + rounding
    err = 0
    do kk = 1, nz
       do j = 1, ny
          do i = 1, nx
             e = abs(u(i, j, kk) - exact_amp * sin(pi * i * h(1)) * sin(pi * j * h(2)) * &
                  sin(pi * kk * h(3)))
             if (ieee_is_nan(e)) e = huge(1.0_dp)
             err = max(err, e)
          end do
       end do
    end do
    ok_pad = .true.
    if (pad > 0) ok_pad = all(ieee_is_nan(u(nx + 1:, :, :))) .and. all(ieee_is_nan(w(nx + 1:, :, :)))
    tol = 1d-6 * predicted + rounding
    ok_bound = err <= bound
    ok_modal = abs(err - predicted) <= tol
    print '(a,es12.4)', 'max error   ', err
    print '(a,es12.4,a)', '            ', predicted, ' predicted by modal analysis'
    print '(a,es12.4,a)', '            ', bound, ' = order bound + rounding'
    if (check) then
       if (ok_bound .and. ok_modal .and. ok_pad) then
          print '(a)', 'check       PASS (error <= bound; error = prediction; padding untouched)'
       else
          print '(a,3l2)', 'check       FAIL (bound, modal, padding):', ok_bound, ok_modal, ok_pad
          error stop 1
       end if
    end if
  end subroutine analyse

  subroutine parse_args()
    integer :: i, nargs, m
    character(len=64) :: arg, val
    nargs = command_argument_count()
    i = 1
    do while (i <= nargs)
       call get_command_argument(i, arg)
       if (arg == '--check') then
          check = .true.
          i = i + 1
          cycle
       end if
       if (i == nargs) call usage('missing value after ' // trim(arg))
       call get_command_argument(i + 1, val)
       select case (arg)
       case ('--n')
          read (val, *) m
          nx = m; ny = m; nz = m
       case ('--nx'); read (val, *) nx
       case ('--ny'); read (val, *) ny
       case ('--nz'); read (val, *) nz
       case ('--pad'); read (val, *) pad
       case ('--steps'); read (val, *) steps
       case ('--nu'); read (val, *) nu
       case ('--dt'); read (val, *) dt
       case ('--threads'); read (val, *) threads
       case default
          call usage('unknown option ' // trim(arg))
       end select
       i = i + 2
    end do
    if (min(nx, ny, nz) < 1 .or. pad < 0 .or. steps < 0 .or. nu <= 0) call usage('bad value')
  end subroutine parse_args

  subroutine usage(why)
    character(len=*), intent(in) :: why
    print '(a)', 'adi_heat3d_f: ' // why
    print '(a)', 'usage: adi_heat3d_f [--n N] [--nx N --ny N --nz N] [--pad P] [--steps S]' // &
         ' [--nu NU] [--dt DT] [--threads T] [--check]'
    error stop 2
  end subroutine usage

end program adi_heat3d_f
