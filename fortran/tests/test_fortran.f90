!> The Fortran module `tridi` from Fortran: the generic tridi_solve on real(8)
!> arrays of ranks 1..7 along every dimension (contiguous, stepped and
!> reversed, through pointers remapped onto rank-1 sections), real(4), array
!> sections of 2-D and 3-D arrays, broadcast coefficients, in place, statuses
!> and messages, the info array, and plans.  Each solution is compared with a
!> Thomas solve in extended precision; memory around x must stay untouched.
program test_fortran
  use, intrinsic :: iso_c_binding, only: c_int32_t, c_int64_t
  use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan, ieee_is_nan
  use tridi
  implicit none
  integer, parameter :: dp = kind(1d0), sp = kind(1.0), qp = selected_real_kind(18)
  integer :: failures = 0, checks = 0

  call test_ranks()
  call test_real4()
  call test_sections()
  call test_broadcast_and_in_place()
  call test_errors()
  call test_info()
  call test_plans()
  if (failures > 0) then
     print '(a,i0,a,i0,a)', 'test_fortran: ', failures, ' of ', checks, ' checks FAILED'
     error stop 1
  end if
  print '(a,i0,a)', 'test_fortran: all ', checks, ' checks passed'

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    checks = checks + 1
    if (.not. ok) then
       failures = failures + 1
       print '(a)', 'FAILED: ' // what
    end if
  end subroutine check

  character(len=40) function str(i)
    integer, intent(in) :: i
    write (str, '(i0)') i
  end function str

  !> Largest error of x against Thomas in extended precision, relative to each
  !> system's largest |x|.  All arrays are in array element order (Fortran
  !> column-major) of extents e; systems run along dimension dim.
  real(dp) function max_err(a, b, c, d, x, e, dim) result(worst)
    real(dp), intent(in) :: a(:), b(:), c(:), d(:), x(:)
    integer, intent(in) :: e(:), dim
    integer :: n, s, first, i, k
    real(qp) :: cp(64), dq(64), xr(64), m, scale
    n = e(dim)
    s = product(e(1:dim - 1))
    worst = 0
    do first = 0, size(x) - 1
       if (mod(first / s, n) /= 0) cycle  ! not the first row of a system
       k = first + 1
       cp(1) = c(k) / b(k)
       dq(1) = d(k) / b(k)
       do i = 2, n
          k = first + (i - 1) * s + 1
          m = b(k) - a(k) * cp(i - 1)
          cp(i) = c(k) / m
          dq(i) = (d(k) - a(k) * dq(i - 1)) / m
       end do
       xr(n) = dq(n)
       do i = n - 1, 1, -1
          xr(i) = dq(i) - cp(i) * xr(i + 1)
       end do
       scale = max(maxval(abs(xr(1:n))), tiny(1.0_qp))
       do i = 1, n
          k = first + (i - 1) * s + 1
          worst = max(worst, real(abs(x(k) - xr(i)) / scale, dp))
       end do
    end do
  end function max_err

  subroutine random_system(a, b, c, d)
    real(dp), intent(out) :: a(:), b(:), c(:), d(:)
    call random_number(a)
    call random_number(b)
    call random_number(c)
    call random_number(d)
    a = 2 * a - 1
    c = 2 * c - 1
    d = 2 * d - 1
    b = 5 + b   ! |b| >= 5 > 2 (|a| + |c|): diagonally dominant
  end subroutine random_system

  ! ---- ranks 1..7 ---------------------------------------------------------------

  !> tridi_solve on arrays of rank r and extents e remapped onto the rank-1
  !> sections fa .. fx (whose steps the remapped pointers keep).
  subroutine solve_rank(r, e, dim, fa, fb, fc, fd, fx, stat)
    integer, intent(in) :: r, e(:), dim
    real(dp), intent(in), target :: fa(:), fb(:), fc(:), fd(:)
    real(dp), intent(inout), target :: fx(:)
    integer, intent(out) :: stat
    select case (r)
    case (1)
       block
         real(dp), pointer :: a(:), b(:), c(:), d(:), x(:)
         a(1:e(1)) => fa; b(1:e(1)) => fb; c(1:e(1)) => fc; d(1:e(1)) => fd; x(1:e(1)) => fx
         call tridi_solve(a, b, c, d, x, dim=dim, stat=stat)
       end block
    case (2)
       block
         real(dp), pointer :: a(:,:), b(:,:), c(:,:), d(:,:), x(:,:)
         a(1:e(1), 1:e(2)) => fa; b(1:e(1), 1:e(2)) => fb; c(1:e(1), 1:e(2)) => fc
         d(1:e(1), 1:e(2)) => fd; x(1:e(1), 1:e(2)) => fx
         call tridi_solve(a, b, c, d, x, dim=dim, stat=stat)
       end block
    case (3)
       block
         real(dp), pointer :: a(:,:,:), b(:,:,:), c(:,:,:), d(:,:,:), x(:,:,:)
         a(1:e(1), 1:e(2), 1:e(3)) => fa; b(1:e(1), 1:e(2), 1:e(3)) => fb
         c(1:e(1), 1:e(2), 1:e(3)) => fc; d(1:e(1), 1:e(2), 1:e(3)) => fd
         x(1:e(1), 1:e(2), 1:e(3)) => fx
         call tridi_solve(a, b, c, d, x, dim=dim, stat=stat)
       end block
    case (4)
       block
         real(dp), pointer :: a(:,:,:,:), b(:,:,:,:), c(:,:,:,:), d(:,:,:,:), x(:,:,:,:)
         a(1:e(1), 1:e(2), 1:e(3), 1:e(4)) => fa; b(1:e(1), 1:e(2), 1:e(3), 1:e(4)) => fb
         c(1:e(1), 1:e(2), 1:e(3), 1:e(4)) => fc; d(1:e(1), 1:e(2), 1:e(3), 1:e(4)) => fd
         x(1:e(1), 1:e(2), 1:e(3), 1:e(4)) => fx
         call tridi_solve(a, b, c, d, x, dim=dim, stat=stat)
       end block
    case (5)
       block
         real(dp), pointer :: a(:,:,:,:,:), b(:,:,:,:,:), c(:,:,:,:,:), d(:,:,:,:,:), &
              x(:,:,:,:,:)
         a(1:e(1), 1:e(2), 1:e(3), 1:e(4), 1:e(5)) => fa
         b(1:e(1), 1:e(2), 1:e(3), 1:e(4), 1:e(5)) => fb
         c(1:e(1), 1:e(2), 1:e(3), 1:e(4), 1:e(5)) => fc
         d(1:e(1), 1:e(2), 1:e(3), 1:e(4), 1:e(5)) => fd
         x(1:e(1), 1:e(2), 1:e(3), 1:e(4), 1:e(5)) => fx
         call tridi_solve(a, b, c, d, x, dim=dim, stat=stat)
       end block
    case (6)
       block
         real(dp), pointer :: a(:,:,:,:,:,:), b(:,:,:,:,:,:), c(:,:,:,:,:,:), &
              d(:,:,:,:,:,:), x(:,:,:,:,:,:)
         a(1:e(1), 1:e(2), 1:e(3), 1:e(4), 1:e(5), 1:e(6)) => fa
         b(1:e(1), 1:e(2), 1:e(3), 1:e(4), 1:e(5), 1:e(6)) => fb
         c(1:e(1), 1:e(2), 1:e(3), 1:e(4), 1:e(5), 1:e(6)) => fc
         d(1:e(1), 1:e(2), 1:e(3), 1:e(4), 1:e(5), 1:e(6)) => fd
         x(1:e(1), 1:e(2), 1:e(3), 1:e(4), 1:e(5), 1:e(6)) => fx
         call tridi_solve(a, b, c, d, x, dim=dim, stat=stat)
       end block
    case (7)
       block
         real(dp), pointer :: a(:,:,:,:,:,:,:), b(:,:,:,:,:,:,:), c(:,:,:,:,:,:,:), &
              d(:,:,:,:,:,:,:), x(:,:,:,:,:,:,:)
         a(1:e(1), 1:e(2), 1:e(3), 1:e(4), 1:e(5), 1:e(6), 1:e(7)) => fa
         b(1:e(1), 1:e(2), 1:e(3), 1:e(4), 1:e(5), 1:e(6), 1:e(7)) => fb
         c(1:e(1), 1:e(2), 1:e(3), 1:e(4), 1:e(5), 1:e(6), 1:e(7)) => fc
         d(1:e(1), 1:e(2), 1:e(3), 1:e(4), 1:e(5), 1:e(6), 1:e(7)) => fd
         x(1:e(1), 1:e(2), 1:e(3), 1:e(4), 1:e(5), 1:e(6), 1:e(7)) => fx
         call tridi_solve(a, b, c, d, x, dim=dim, stat=stat)
       end block
    end select
  end subroutine solve_rank

  subroutine test_ranks()
    integer :: r, dim, layout, n, j, stat
    integer, allocatable :: e(:)
    real(dp), allocatable :: ba(:), bb(:), bc(:), bd(:), bx(:), a(:), b(:), c(:), d(:), x(:)
    real(dp) :: err
    character(len=:), allocatable :: what
    do r = 1, 7
       e = [(2 + mod(5 * j + r, 3), j = 1, r)]
       n = product(e)
       allocate (a(n), b(n), c(n), d(n), x(n), ba(2 * n), bb(2 * n), bc(2 * n), bd(2 * n), &
            bx(2 * n))
       do dim = 1, r
          do layout = 1, 3   ! contiguous, step 2, reversed
             call random_system(a, b, c, d)
             ba = 0; bb = 0; bc = 0; bd = 0
             bx = ieee_value(1.0_dp, ieee_quiet_nan)
             what = 'rank ' // trim(str(r)) // ' dim ' // trim(str(dim)) // ' layout ' // &
                  trim(str(layout))
             select case (layout)
             case (1)
                ba(1:n) = a; bb(1:n) = b; bc(1:n) = c; bd(1:n) = d
                call solve_rank(r, e, dim, ba(1:n), bb(1:n), bc(1:n), bd(1:n), bx(1:n), stat)
                x = bx(1:n)
             case (2)
                ba(1:2*n:2) = a; bb(2:2*n:2) = b; bc(1:2*n:2) = c; bd(2:2*n:2) = d
                call solve_rank(r, e, dim, ba(1:2*n:2), bb(2:2*n:2), bc(1:2*n:2), &
                     bd(2:2*n:2), bx(2:2*n:2), stat)
                x = bx(2:2*n:2)
             case (3)
                ba(n:1:-1) = a; bb(2*n:n+1:-1) = b; bc(n:1:-1) = c; bd(2*n:2:-2) = d
                call solve_rank(r, e, dim, ba(n:1:-1), bb(2*n:n+1:-1), bc(n:1:-1), &
                     bd(2*n:2:-2), bx(2*n:2:-2), stat)
                x = bx(2*n:2:-2)
             end select
             call check(stat == TRIDI_SUCCESS, what // ': stat ' // tridi_status_name(stat) // &
                  ' ' // tridi_last_error())
             err = max_err(a, b, c, d, x, e, dim)
             call check(err <= 32 * e(dim) * epsilon(1.0_dp), what // ': error too large')
             call check(count(.not. ieee_is_nan(bx)) == n, what // ': x''s neighbours written')
          end do
       end do
       deallocate (a, b, c, d, x, ba, bb, bc, bd, bx)
    end do
  end subroutine test_ranks

  subroutine test_real4()
    real(sp) :: a(6, 5), b(6, 5), c(6, 5), d(6, 5), x(6, 5)
    real(dp) :: ad(30), bd(30), cd(30), dd(30)
    integer :: stat
    call random_system(ad, bd, cd, dd)
    a = reshape(real(ad, sp), shape(a)); b = reshape(real(bd, sp), shape(b))
    c = reshape(real(cd, sp), shape(c)); d = reshape(real(dd, sp), shape(d))
    call tridi_solve(a, b, c, d, x, dim=2, stat=stat)
    call check(stat == TRIDI_SUCCESS, 'real(4): stat')
    call check(max_err(real(pack(a, .true.), dp), real(pack(b, .true.), dp), &
         real(pack(c, .true.), dp), real(pack(d, .true.), dp), real(pack(x, .true.), dp), &
         [6, 5], 2) <= 32 * 5 * epsilon(1.0_sp), 'real(4): error')
    ! in place, along dimension 1 of a reversed section
    x(6:1:-1, :) = d
    call tridi_solve(a, b, c, x(6:1:-1, :), stat=stat)
    call check(stat == TRIDI_SUCCESS, 'real(4) in place: stat')
    call check(max_err(real(pack(a, .true.), dp), real(pack(b, .true.), dp), &
         real(pack(c, .true.), dp), real(pack(d, .true.), dp), &
         real(pack(x(6:1:-1, :), .true.), dp), [6, 5], 1) <= 32 * 6 * epsilon(1.0_sp), &
         'real(4) in place: error')
  end subroutine test_real4

  ! ---- sections -------------------------------------------------------------------

  subroutine test_sections()
    real(dp), target :: u(10, 8), a(10, 8), b(10, 8), c(10, 8), g(0:9, 7, 6), w(0:9, 7, 6)
    real(dp) :: nan, ad(80), bd(80), cd(80), dd(80), keep(0:9, 7, 6)
    integer :: stat, dim
    logical :: inside(0:9, 7, 6)
    nan = ieee_value(1.0_dp, ieee_quiet_nan)
    call random_system(ad, bd, cd, dd)
    a = reshape(ad, shape(a)); b = reshape(bd, shape(b)); c = reshape(cd, shape(c))
    do dim = 1, 2
       u = nan
       call tridi_solve(a(2:9:3, 8:1:-2), b(1:3, 1:4), c(10:8:-1, 2:8:2), &
            reshape(dd(1:12), [3, 4]), u(2:9:3, 8:1:-2), dim=dim, stat=stat)
       call check(stat == TRIDI_SUCCESS, 'section of u: stat')
       call check(max_err(pack(a(2:9:3, 8:1:-2), .true.), pack(b(1:3, 1:4), .true.), &
            pack(c(10:8:-1, 2:8:2), .true.), dd(1:12), pack(u(2:9:3, 8:1:-2), .true.), &
            [3, 4], dim) <= 32 * 4 * epsilon(1.0_dp), 'section of u: error')
       call check(count(.not. ieee_is_nan(u)) == 12, 'section of u: only the section written')
    end do
    ! the interior of a 3-D grid with a halo in x, solved in place along y
    call random_number(g)
    g = g - 0.5_dp
    keep = g
    inside = .false.
    inside(1:8, :, 2:5) = .true.
    call tridi_solve(-1.0_dp, 4.0_dp, -1.0_dp, g(1:8, :, 2:5), dim=2, stat=stat)
    call check(stat == TRIDI_SUCCESS, 'grid interior: stat')
    call check(all(g == keep .or. inside), 'grid interior: the halo was written')
    w = 0
    call tridi_solve(-1.0_dp, 4.0_dp, -1.0_dp, keep(1:8, :, 2:5), w(1:8, :, 2:5), dim=2, &
         stat=stat)
    call check(all(w(1:8, :, 2:5) == g(1:8, :, 2:5)), 'grid interior: in place = out of place')
  end subroutine test_sections

  subroutine test_broadcast_and_in_place()
    real(dp) :: x(5, 6, 7), d(5, 6, 7), a(6), c(6), full_a(5, 6, 7), full_c(5, 6, 7)
    real(dp) :: r1(210), r2(210), r3(210), dflat(210)
    integer :: stat, i
    call random_system(r1, r2, r3, dflat)
    d = reshape(dflat, shape(d))
    do i = 1, 6
       a(i) = -0.5_dp + 0.1_dp * i
       c(i) = 0.3_dp - 0.05_dp * i
    end do
    ! a and c rank 1 along dim 2, b a constant (rank 0): one matrix for all systems
    call tridi_solve(a, 3.0_dp, c, d, x, dim=2, stat=stat)
    call check(stat == TRIDI_SUCCESS, 'broadcast: stat ' // tridi_last_error())
    full_a = spread(spread(a, 1, 5), 3, 7)
    full_c = spread(spread(c, 1, 5), 3, 7)
    call check(max_err(pack(full_a, .true.), [(3.0_dp, i = 1, 210)], pack(full_c, .true.), &
         dflat, pack(x, .true.), [5, 6, 7], 2) <= 32 * 6 * epsilon(1.0_dp), 'broadcast: error')
    ! in place: x holds d on entry
    x = d
    call tridi_solve(a, 3.0_dp, c, x, dim=2, stat=stat)
    call check(stat == TRIDI_SUCCESS, 'in place: stat')
    call check(max_err(pack(full_a, .true.), [(3.0_dp, i = 1, 210)], pack(full_c, .true.), &
         dflat, pack(x, .true.), [5, 6, 7], 2) <= 32 * 6 * epsilon(1.0_dp), 'in place: error')
  end subroutine test_broadcast_and_in_place

  ! ---- errors and info --------------------------------------------------------------

  subroutine test_errors()
    real(dp) :: x(4, 3), b(4, 3), bad(4, 2), r2(4, 3, 2), u(10)
    character(len=200) :: msg
    integer :: stat
    b = 4
    x = 1
    call tridi_solve(1.0_dp, b, 1.0_dp, x, dim=3, stat=stat, errmsg=msg)
    call check(stat == TRIDI_ERR_INVALID_AXIS, 'dim = 3 of a rank-2 x: ' // tridi_status_name(stat))
    call check(index(msg, 'dim = 3') > 0, 'dim = 3: errmsg "' // trim(msg) // '"')
    call tridi_solve(1.0_dp, b, 1.0_dp, x, dim=0, stat=stat)
    call check(stat == TRIDI_ERR_INVALID_AXIS, 'dim = 0')
    bad = 4
    call tridi_solve(1.0_dp, bad, 1.0_dp, x, stat=stat, errmsg=msg)
    call check(stat == TRIDI_ERR_INVALID_SHAPE .and. index(msg, 'dimension 2') > 0, &
         'extent mismatch: ' // trim(msg))
    r2 = 4
    call tridi_solve(1.0_dp, r2, 1.0_dp, x, stat=stat)
    call check(stat == TRIDI_ERR_INVALID_SHAPE, 'rank mismatch')
    call tridi_solve(1.0_dp, b, 1.0_dp, x, stat=stat, alg='no_such_alg')
    call check(stat == TRIDI_ERR_INVALID_OPTION, 'unknown alg')
    ! pcr neither pivots nor checks: refused unless the systems are declared dominant
    call tridi_solve(1.0_dp, b, 1.0_dp, x, stat=stat, errmsg=msg, alg='pcr')
    call check(stat == TRIDI_ERR_INVALID_OPTION .and. index(msg, 'assume_dominant') > 0, &
         'pcr without assume_dominant: ' // trim(msg))
    x = 1
    call tridi_solve(1.0_dp, b, 1.0_dp, x, stat=stat, alg='pcr', assume_dominant=.true.)
    ! tridiag(1, 4, 1) x = 1 along dim 1 (n = 4): x = (4, 3, 3, 4) / 19
    call check(stat == TRIDI_SUCCESS .and. all(abs(x(:, 2) - [4, 3, 3, 4] / 19.0_dp) < 1e-14_dp), &
         'pcr with assume_dominant')
    u = 1
    call tridi_solve(1.0_dp, 4.0_dp, 1.0_dp, u(1:5), u(2:6), stat=stat, errmsg=msg)
    call check(stat == TRIDI_ERR_OVERLAP, 'x overlaps d: ' // tridi_status_name(stat))
    call check(tridi_status_name(TRIDI_ERR_ZERO_PIVOT) == 'TRIDI_ERR_ZERO_PIVOT', 'status name')
    call tridi_solve(1.0_dp, b, 1.0_dp, x, stat=stat, errmsg=msg)
    call check(stat == TRIDI_SUCCESS, 'success')
  end subroutine test_errors

  subroutine test_info()
    real(dp) :: b(4, 3, 5), x(4, 3, 5), d(4, 3, 5)
    integer(c_int32_t) :: info(3, 5), info1
    integer :: stat
    b = 4
    d = 1
    b(1:2, 2, 3) = 1    ! system (2, 3) along dim 1: pivots 1, 0 -> zero pivot at row 2
    d(3, 1, 5) = ieee_value(1.0_dp, ieee_quiet_nan)   ! system (1, 5): NaN at row 3
    ! the default pivot mode (TRIDI_PIVOT_AUTO) solves the zero-pivot system again with
    ! partial pivoting (it is regular); the NaN stays reported
    call tridi_solve(1.0_dp, b, 1.0_dp, d, x, dim=1, stat=stat, info=info)
    call check(stat == TRIDI_ERR_NONFINITE, 'info: stat ' // tridi_status_name(stat))
    call check(info(2, 3) == 0 .and. info(1, 5) == -3, 'info: codes of the failed systems')
    call check(count(info /= 0) == 1, 'info: the other systems solved')
    call check(abs(x(1, 2, 3) + x(2, 2, 3) - d(1, 2, 3)) < 1e-12_dp, 'info: the pivoted system solved')
    call tridi_solve(1.0_dp, 4.0_dp, 1.0_dp, [1.0_dp, 2.0_dp], x(1:2, 1, 1), stat=stat, info=info1)
    call check(stat == TRIDI_SUCCESS .and. info1 == 0, 'info of one system (a scalar)')
  end subroutine test_info

  ! ---- plans ------------------------------------------------------------------------

  subroutine test_plans()
    type(tridi_plan) :: plan, never
    real(dp) :: big(20, 9), x(10, 9), y(10, 9), d(10, 9), b(10, 9)
    real(sp) :: xs(8, 3), ds(8, 3)
    character(len=32) :: alg, backend
    character(len=128) :: kernel
    integer(c_int64_t) :: ws
    integer :: stat, rep
    call random_number(b)
    b = b + 4
    call tridi_plan_create(plan, 1.0_dp, b, 1.0_dp, d, big(1:20:2, :), dim=1, stat=stat, &
         backend=TRIDI_BACKEND_CPU, threads=1)
    call check(stat == TRIDI_SUCCESS, 'plan: create ' // tridi_last_error())
    call tridi_plan_describe(plan, alg=alg, backend=backend, kernel=kernel, &
         workspace_bytes=ws, stat=stat)
    call check(stat == TRIDI_SUCCESS .and. backend == 'cpu' .and. len_trim(alg) > 0 .and. &
         ws >= 0, 'plan: describe')
    do rep = 1, 3
       call random_number(d)
       call tridi_plan_execute(plan, 1.0_dp, b, 1.0_dp, d, big(1:20:2, :), stat=stat)
       call check(stat == TRIDI_SUCCESS, 'plan: execute')
       call tridi_solve(1.0_dp, b, 1.0_dp, d, y, stat=stat)
       call check(all(abs(big(1:20:2, :) - y) <= 1d-14 * maxval(abs(y))), &
            'plan: same answer as tridi_solve')
    end do
    call tridi_plan_execute(plan, 1.0_dp, b, 1.0_dp, d, x, stat=stat)
    call check(stat == TRIDI_ERR_INVALID_STRIDE, 'plan: other strides refused')
    call tridi_plan_destroy(plan)
    call tridi_plan_destroy(plan)   ! twice is fine
    call tridi_plan_execute(plan, 1.0_dp, b, 1.0_dp, d, x, stat=stat)
    call check(stat == TRIDI_ERR_NULL_POINTER, 'plan: destroyed')
    call tridi_plan_execute(never, 1.0_dp, b, 1.0_dp, d, x, stat=stat)
    call check(stat == TRIDI_ERR_NULL_POINTER, 'plan: never created')
    ! an in-place plan in real(4)
    call random_number(ds)
    call tridi_plan_create(plan, 1.0_sp, 4.0_sp, 1.0_sp, xs, dim=2, stat=stat)
    call check(stat == TRIDI_SUCCESS, 'plan in place: create')
    xs = ds
    call tridi_plan_execute(plan, 1.0_sp, 4.0_sp, 1.0_sp, xs, stat=stat)
    call check(stat == TRIDI_SUCCESS, 'plan in place: execute')
    call check(max_err([(1.0_dp, rep = 1, 24)], [(4.0_dp, rep = 1, 24)], &
         [(1.0_dp, rep = 1, 24)], real(pack(ds, .true.), dp), real(pack(xs, .true.), dp), &
         [8, 3], 2) <= 32 * 3 * epsilon(1.0_sp), 'plan in place: error')
    call tridi_plan_destroy(plan)
  end subroutine test_plans

end program test_fortran
