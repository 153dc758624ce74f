!> tridi for Fortran: batched tridiagonal solves along any dimension of
!> real(4) or real(8) arrays of rank 1 to 7, array sections included, without
!> copies.
!>
!>   use tridi
!>   call tridi_solve(a, b, c, d, x, dim=2, stat=ierr)   ! x(i,:,k) solves for every i, k
!>   call tridi_solve(a, b, c, x, dim=2, stat=ierr)      ! in place: x is d on entry
!>
!> Every index of the dimensions other than dim is one system
!>   a(i) x(i-1) + b(i) x(i) + c(i) x(i+1) = d(i),  i = 1 .. n = size(x, dim),
!> a(1) and c(n) are not used.  a, b, c and d have the shape of x (an extent of
!> 1 is broadcast), or rank 1 with extent n (the same coefficients for every
!> system), or rank 0 (a constant diagonal).  The arrays are passed to the C
!> library through their Fortran 2018 descriptors, strides and all: a section
!> such as u(1:nx, :, 2:nz-1) or x(n:1:-1, :) is solved where it is.
!>
!> Errors: with stat present, stat gets tridi's status (TRIDI_SUCCESS = 0 or
!> one of the TRIDI_ERR_* constants) and errmsg, if present, the reason; with
!> stat absent a failure stops the program with the reason (error stop), as a
!> Fortran ALLOCATE does.  A zero pivot or a NaN/Inf in a system is
!> TRIDI_ERR_ZERO_PIVOT or TRIDI_ERR_NONFINITE; info, if present, then says
!> which systems and rows (one integer(c_int32_t) per system, shaped like x
!> without dimension dim: 0 solved, k > 0 zero pivot at row k, k < 0 NaN/Inf
!> at row -k).
!>
!> Plans: tridi_plan_create(plan, a, b, c, d, x, dim=...) describes the arrays
!> once; tridi_plan_execute(plan, a, b, c, d, x) then solves arrays with the
!> same shapes and strides (checked) as often as needed;
!> tridi_plan_destroy(plan) frees it.
module tridi
  use, intrinsic :: iso_c_binding, only: c_ptr, c_null_ptr, c_associated, c_f_pointer, &
       c_int, c_int32_t, c_int64_t, c_char, c_null_char, c_size_t, c_float, c_double
  implicit none
  private

  ! statuses (tridi.h)
  integer, parameter, public :: TRIDI_SUCCESS = 0, TRIDI_ERR_NULL_POINTER = 1, &
       TRIDI_ERR_INVALID_DTYPE = 2, TRIDI_ERR_INVALID_RANK = 3, TRIDI_ERR_INVALID_SHAPE = 4, &
       TRIDI_ERR_INVALID_AXIS = 5, TRIDI_ERR_INVALID_STRIDE = 6, TRIDI_ERR_INVALID_OPERAND = 7, &
       TRIDI_ERR_INVALID_OPTION = 8, TRIDI_ERR_OVERLAP = 9, TRIDI_ERR_MISALIGNED = 10, &
       TRIDI_ERR_NOT_SUPPORTED = 11, TRIDI_ERR_BACKEND_UNAVAILABLE = 12, TRIDI_ERR_ALLOC = 13, &
       TRIDI_ERR_WORKSPACE = 14, TRIDI_ERR_ZERO_PIVOT = 15, TRIDI_ERR_NONFINITE = 16, &
       TRIDI_ERR_DEVICE = 17, TRIDI_ERR_INTERNAL = 18, TRIDI_ERR_INACCURATE = 19
  ! backends for tridi_plan_create
  integer, parameter, public :: TRIDI_BACKEND_AUTO = 0, TRIDI_BACKEND_REF = 1, &
       TRIDI_BACKEND_CPU = 2, TRIDI_BACKEND_CUDA = 3
  !> info code of a system solved without the promised accuracy (rd, cr_rd)
  integer(c_int32_t), parameter, public :: TRIDI_INFO_INACCURATE = huge(0_c_int32_t)

  !> A plan: made by tridi_plan_create, freed by tridi_plan_destroy.
  type, public :: tridi_plan
     private
     type(c_ptr) :: handle = c_null_ptr
  end type tridi_plan

  public :: tridi_solve, tridi_plan_create, tridi_plan_execute, tridi_plan_destroy, &
       tridi_plan_describe, tridi_last_error, tridi_status_name

  !> call tridi_solve(a, b, c, d, x [, dim, stat, errmsg, info, alg, assume_dominant])
  !> call tridi_solve(a, b, c, x [, dim, stat, errmsg, info, alg, assume_dominant])   (in place)
  interface tridi_solve
     module procedure solve_r4, solve_r8, solve_in_place_r4, solve_in_place_r8
  end interface tridi_solve

  !> call tridi_plan_create(plan, a, b, c, d, x [, dim, stat, errmsg, alg, backend, threads, device,
  !>                        assume_dominant])
  !> call tridi_plan_create(plan, a, b, c, x [, ...])   (a plan for in-place solves)
  interface tridi_plan_create
     module procedure plan_create_r4, plan_create_r8, plan_create_in_place_r4, &
          plan_create_in_place_r8
  end interface tridi_plan_create

  !> call tridi_plan_execute(plan, a, b, c, d, x [, stat, errmsg, info])
  !> call tridi_plan_execute(plan, a, b, c, x [, stat, errmsg, info])   (in place)
  interface tridi_plan_execute
     module procedure plan_execute_r4, plan_execute_r8, plan_execute_in_place_r4, &
          plan_execute_in_place_r8
  end interface tridi_plan_execute

  interface
     function c_solve(a, b, c, d, x, dim, info, alg, assume_dominant) &
          bind(C, name="tridi_f_solve") result(st)
       import :: c_int, c_int32_t, c_char
       type(*), dimension(..), intent(in) :: a, b, c
       type(*), dimension(..), intent(in), optional :: d  ! absent: in place (x is d)
       type(*), dimension(..), intent(inout) :: x
       integer(c_int), value :: dim
       integer(c_int32_t), dimension(..), intent(out), optional :: info
       character(kind=c_char), dimension(*), intent(in) :: alg
       integer(c_int), value :: assume_dominant
       integer(c_int) :: st
     end function c_solve

     function c_plan_create(plan, a, b, c, d, x, dim, alg, backend, threads, device, &
          assume_dominant) bind(C, name="tridi_f_plan_create") result(st)
       import :: c_int, c_char, c_ptr
       type(c_ptr), intent(out) :: plan
       type(*), dimension(..), intent(in) :: a, b, c, x
       type(*), dimension(..), intent(in), optional :: d  ! absent: in place (x is d)
       integer(c_int), value :: dim, backend, threads, device, assume_dominant
       character(kind=c_char), dimension(*), intent(in) :: alg
       integer(c_int) :: st
     end function c_plan_create

     function c_plan_execute(plan, a, b, c, d, x, info) bind(C, name="tridi_f_plan_execute") &
          result(st)
       import :: c_int, c_int32_t, c_ptr
       type(c_ptr), value :: plan
       type(*), dimension(..), intent(in) :: a, b, c
       type(*), dimension(..), intent(in), optional :: d  ! absent: in place (x is d)
       type(*), dimension(..), intent(inout) :: x
       integer(c_int32_t), dimension(..), intent(out), optional :: info
       integer(c_int) :: st
     end function c_plan_execute

     subroutine c_plan_destroy(plan) bind(C, name="tridi_f_plan_destroy")
       import :: c_ptr
       type(c_ptr), value :: plan
     end subroutine c_plan_destroy

     function c_plan_describe(plan, alg, alg_len, backend, backend_len, kernel, kernel_len, &
          workspace_bytes) bind(C, name="tridi_f_plan_describe") result(st)
       import :: c_ptr, c_char, c_size_t, c_int64_t, c_int
       type(c_ptr), value :: plan
       character(kind=c_char), dimension(*), intent(out) :: alg, backend, kernel
       integer(c_size_t), value :: alg_len, backend_len, kernel_len
       integer(c_int64_t), intent(out) :: workspace_bytes
       integer(c_int) :: st
     end function c_plan_describe

     function c_last_error() bind(C, name="tridi_f_last_error") result(p)
       import :: c_ptr
       type(c_ptr) :: p
     end function c_last_error

     function c_status_name(st) bind(C, name="tridi_status_name") result(p)
       import :: c_ptr, c_int
       integer(c_int), value :: st
       type(c_ptr) :: p
     end function c_status_name
  end interface

contains

  ! ---- strings ---------------------------------------------------------------

  function c_string(p) result(s)
    type(c_ptr), intent(in) :: p
    character(len=:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer :: n, i
    if (.not. c_associated(p)) then
       s = ''
       return
    end if
    call c_f_pointer(p, chars, [huge(0)])
    n = 0
    do while (chars(n + 1) /= c_null_char)
       n = n + 1
    end do
    allocate (character(len=n) :: s)
    do i = 1, n
       s(i:i) = chars(i)
    end do
  end function c_string

  !> The reason for the last failure of a tridi call of this thread.
  function tridi_last_error() result(msg)
    character(len=:), allocatable :: msg
    msg = c_string(c_last_error())
  end function tridi_last_error

  !> The name of a status, e.g. "TRIDI_ERR_ZERO_PIVOT".
  function tridi_status_name(st) result(name)
    integer, intent(in) :: st
    character(len=:), allocatable :: name
    name = c_string(c_status_name(int(st, c_int)))
  end function tridi_status_name

  function c_str(s) result(cs)
    character(len=*), intent(in) :: s
    character(kind=c_char, len=len_trim(s) + 1) :: cs
    cs = trim(s) // c_null_char
  end function c_str

  !> stat and errmsg, or error stop with the reason when stat is absent
  subroutine finish(st, what, stat, errmsg)
    integer(c_int), intent(in) :: st
    character(len=*), intent(in) :: what
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    if (present(stat)) stat = int(st)
    if (st == TRIDI_SUCCESS) return
    if (present(errmsg)) errmsg = tridi_last_error()
    if (.not. present(stat)) then
       error stop what // ': ' // tridi_status_name(int(st)) // ': ' // tridi_last_error()
    end if
  end subroutine finish

  integer(c_int) function dim_or_1(dim)
    integer, intent(in), optional :: dim
    dim_or_1 = 1
    if (present(dim)) dim_or_1 = int(dim, c_int)
  end function dim_or_1

  !> 1 where the caller declares the systems diagonally dominant
  !> (tridi_options.assume_dominant; required to force 'cr', 'pcr', 'cr_pcr')
  integer(c_int) function flag_or_0(flag)
    logical, intent(in), optional :: flag
    flag_or_0 = 0
    if (present(flag)) then
       if (flag) flag_or_0 = 1
    end if
  end function flag_or_0

  function alg_or_auto(alg) result(s)
    character(len=*), intent(in), optional :: alg
    character(len=:), allocatable :: s
    s = 'auto'
    if (present(alg)) s = alg
  end function alg_or_auto

  ! ---- tridi_solve -------------------------------------------------------------

  subroutine solve_r8(a, b, c, d, x, dim, stat, errmsg, info, alg, assume_dominant)
    real(c_double), intent(in) :: a(..), b(..), c(..), d(..)
    real(c_double), intent(inout) :: x(..)
    integer, intent(in), optional :: dim
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int32_t), intent(out), optional :: info(..)
    character(len=*), intent(in), optional :: alg
    logical, intent(in), optional :: assume_dominant
    call finish(c_solve(a, b, c, d, x, dim_or_1(dim), info, c_str(alg_or_auto(alg)), &
         flag_or_0(assume_dominant)), &
         'tridi_solve', stat, errmsg)
  end subroutine solve_r8

  subroutine solve_r4(a, b, c, d, x, dim, stat, errmsg, info, alg, assume_dominant)
    real(c_float), intent(in) :: a(..), b(..), c(..), d(..)
    real(c_float), intent(inout) :: x(..)
    integer, intent(in), optional :: dim
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int32_t), intent(out), optional :: info(..)
    character(len=*), intent(in), optional :: alg
    logical, intent(in), optional :: assume_dominant
    call finish(c_solve(a, b, c, d, x, dim_or_1(dim), info, c_str(alg_or_auto(alg)), &
         flag_or_0(assume_dominant)), &
         'tridi_solve', stat, errmsg)
  end subroutine solve_r4

  subroutine solve_in_place_r8(a, b, c, x, dim, stat, errmsg, info, alg, assume_dominant)
    real(c_double), intent(in) :: a(..), b(..), c(..)
    real(c_double), intent(inout) :: x(..)
    integer, intent(in), optional :: dim
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int32_t), intent(out), optional :: info(..)
    character(len=*), intent(in), optional :: alg
    logical, intent(in), optional :: assume_dominant
    call finish(c_solve(a, b, c, x=x, dim=dim_or_1(dim), info=info, alg=c_str(alg_or_auto(alg)), &
         assume_dominant=flag_or_0(assume_dominant)), &
         'tridi_solve', stat, errmsg)
  end subroutine solve_in_place_r8

  subroutine solve_in_place_r4(a, b, c, x, dim, stat, errmsg, info, alg, assume_dominant)
    real(c_float), intent(in) :: a(..), b(..), c(..)
    real(c_float), intent(inout) :: x(..)
    integer, intent(in), optional :: dim
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int32_t), intent(out), optional :: info(..)
    character(len=*), intent(in), optional :: alg
    logical, intent(in), optional :: assume_dominant
    call finish(c_solve(a, b, c, x=x, dim=dim_or_1(dim), info=info, alg=c_str(alg_or_auto(alg)), &
         assume_dominant=flag_or_0(assume_dominant)), &
         'tridi_solve', stat, errmsg)
  end subroutine solve_in_place_r4

  ! ---- plans -------------------------------------------------------------------

  subroutine create(plan, st, what, stat, errmsg)
    type(tridi_plan), intent(inout) :: plan
    integer(c_int), intent(in) :: st
    character(len=*), intent(in) :: what
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    if (st /= TRIDI_SUCCESS) plan%handle = c_null_ptr
    call finish(st, what, stat, errmsg)
  end subroutine create

  integer(c_int) function opt_int(v, default)
    integer, intent(in), optional :: v
    integer, intent(in) :: default
    opt_int = int(default, c_int)
    if (present(v)) opt_int = int(v, c_int)
  end function opt_int

  subroutine plan_create_r8(plan, a, b, c, d, x, dim, stat, errmsg, alg, backend, threads, device, &
       assume_dominant)
    type(tridi_plan), intent(inout) :: plan
    real(c_double), intent(in) :: a(..), b(..), c(..), d(..), x(..)
    integer, intent(in), optional :: dim, backend, threads, device
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), intent(in), optional :: alg
    logical, intent(in), optional :: assume_dominant
    call tridi_plan_destroy(plan)
    call create(plan, c_plan_create(plan%handle, a, b, c, d, x, dim_or_1(dim), &
         c_str(alg_or_auto(alg)), opt_int(backend, TRIDI_BACKEND_AUTO), opt_int(threads, 0), &
         opt_int(device, 0), flag_or_0(assume_dominant)), 'tridi_plan_create', stat, errmsg)
  end subroutine plan_create_r8

  subroutine plan_create_r4(plan, a, b, c, d, x, dim, stat, errmsg, alg, backend, threads, device, &
       assume_dominant)
    type(tridi_plan), intent(inout) :: plan
    real(c_float), intent(in) :: a(..), b(..), c(..), d(..), x(..)
    integer, intent(in), optional :: dim, backend, threads, device
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), intent(in), optional :: alg
    logical, intent(in), optional :: assume_dominant
    call tridi_plan_destroy(plan)
    call create(plan, c_plan_create(plan%handle, a, b, c, d, x, dim_or_1(dim), &
         c_str(alg_or_auto(alg)), opt_int(backend, TRIDI_BACKEND_AUTO), opt_int(threads, 0), &
         opt_int(device, 0), flag_or_0(assume_dominant)), 'tridi_plan_create', stat, errmsg)
  end subroutine plan_create_r4

  subroutine plan_create_in_place_r8(plan, a, b, c, x, dim, stat, errmsg, alg, backend, threads, &
       device, assume_dominant)
    type(tridi_plan), intent(inout) :: plan
    real(c_double), intent(in) :: a(..), b(..), c(..), x(..)
    integer, intent(in), optional :: dim, backend, threads, device
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), intent(in), optional :: alg
    logical, intent(in), optional :: assume_dominant
    call tridi_plan_destroy(plan)
    call create(plan, c_plan_create(plan%handle, a, b, c, x=x, dim=dim_or_1(dim), &
         alg=c_str(alg_or_auto(alg)), backend=opt_int(backend, TRIDI_BACKEND_AUTO), &
         threads=opt_int(threads, 0), device=opt_int(device, 0), &
         assume_dominant=flag_or_0(assume_dominant)), 'tridi_plan_create', stat, errmsg)
  end subroutine plan_create_in_place_r8

  subroutine plan_create_in_place_r4(plan, a, b, c, x, dim, stat, errmsg, alg, backend, threads, &
       device, assume_dominant)
    type(tridi_plan), intent(inout) :: plan
    real(c_float), intent(in) :: a(..), b(..), c(..), x(..)
    integer, intent(in), optional :: dim, backend, threads, device
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), intent(in), optional :: alg
    logical, intent(in), optional :: assume_dominant
    call tridi_plan_destroy(plan)
    call create(plan, c_plan_create(plan%handle, a, b, c, x=x, dim=dim_or_1(dim), &
         alg=c_str(alg_or_auto(alg)), backend=opt_int(backend, TRIDI_BACKEND_AUTO), &
         threads=opt_int(threads, 0), device=opt_int(device, 0), &
         assume_dominant=flag_or_0(assume_dominant)), 'tridi_plan_create', stat, errmsg)
  end subroutine plan_create_in_place_r4

  subroutine plan_execute_r8(plan, a, b, c, d, x, stat, errmsg, info)
    type(tridi_plan), intent(in) :: plan
    real(c_double), intent(in) :: a(..), b(..), c(..), d(..)
    real(c_double), intent(inout) :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int32_t), intent(out), optional :: info(..)
    call finish(c_plan_execute(plan%handle, a, b, c, d, x, info), 'tridi_plan_execute', stat, &
         errmsg)
  end subroutine plan_execute_r8

  subroutine plan_execute_r4(plan, a, b, c, d, x, stat, errmsg, info)
    type(tridi_plan), intent(in) :: plan
    real(c_float), intent(in) :: a(..), b(..), c(..), d(..)
    real(c_float), intent(inout) :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int32_t), intent(out), optional :: info(..)
    call finish(c_plan_execute(plan%handle, a, b, c, d, x, info), 'tridi_plan_execute', stat, &
         errmsg)
  end subroutine plan_execute_r4

  subroutine plan_execute_in_place_r8(plan, a, b, c, x, stat, errmsg, info)
    type(tridi_plan), intent(in) :: plan
    real(c_double), intent(in) :: a(..), b(..), c(..)
    real(c_double), intent(inout) :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int32_t), intent(out), optional :: info(..)
    call finish(c_plan_execute(plan%handle, a, b, c, x=x, info=info), 'tridi_plan_execute', stat, &
         errmsg)
  end subroutine plan_execute_in_place_r8

  subroutine plan_execute_in_place_r4(plan, a, b, c, x, stat, errmsg, info)
    type(tridi_plan), intent(in) :: plan
    real(c_float), intent(in) :: a(..), b(..), c(..)
    real(c_float), intent(inout) :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int32_t), intent(out), optional :: info(..)
    call finish(c_plan_execute(plan%handle, a, b, c, x=x, info=info), 'tridi_plan_execute', stat, &
         errmsg)
  end subroutine plan_execute_in_place_r4

  !> Free a plan (a plan never created, or already destroyed, is accepted).
  subroutine tridi_plan_destroy(plan)
    type(tridi_plan), intent(inout) :: plan
    if (c_associated(plan%handle)) call c_plan_destroy(plan%handle)
    plan%handle = c_null_ptr
  end subroutine tridi_plan_destroy

  !> What a plan chose: algorithm and backend names, kernel, workspace size.
  subroutine tridi_plan_describe(plan, alg, backend, kernel, workspace_bytes, stat, errmsg)
    type(tridi_plan), intent(in) :: plan
    character(len=*), intent(out), optional :: alg, backend, kernel
    integer(c_int64_t), intent(out), optional :: workspace_bytes
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(kind=c_char, len=64) :: a, b
    character(kind=c_char, len=128) :: k
    integer(c_int64_t) :: ws
    call finish(c_plan_describe(plan%handle, a, len(a, c_size_t), b, len(b, c_size_t), k, &
         len(k, c_size_t), ws), 'tridi_plan_describe', stat, errmsg)
    if (present(alg)) alg = a
    if (present(backend)) backend = b
    if (present(kernel)) kernel = k
    if (present(workspace_bytes)) workspace_bytes = ws
  end subroutine tridi_plan_describe

end module tridi
