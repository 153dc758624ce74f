# Run a command and check its exit status and output (CTest helper for the
# tools' tests: CTest's WILL_FAIL cannot tell exit status 1 from 2).
#   cmake -DCMD=prog|arg|arg -DEXPECT_RC=2 [-DMATCH=regex] [-DNOMATCH=regex]
#         [-DCSV=file -DCSV_MATCH=regex] -P run_expect.cmake
# CMD's arguments are separated by '|'; MATCH must and NOMATCH must not occur
# in stdout + stderr; CSV_MATCH must occur in the file CSV the command wrote.
string(REPLACE "|" ";" cmd "${CMD}")
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(NOT "${rc}" STREQUAL "${EXPECT_RC}")
  message(FATAL_ERROR "exit status ${rc}, expected ${EXPECT_RC}\n--- output:\n${all}")
endif()
if(DEFINED MATCH AND NOT all MATCHES "${MATCH}")
  message(FATAL_ERROR "output does not match '${MATCH}'\n--- output:\n${all}")
endif()
if(DEFINED NOMATCH AND all MATCHES "${NOMATCH}")
  message(FATAL_ERROR "output matches '${NOMATCH}'\n--- output:\n${all}")
endif()
if(DEFINED CSV)
  file(READ "${CSV}" csv)
  if(NOT csv MATCHES "${CSV_MATCH}")
    message(FATAL_ERROR "${CSV} does not match '${CSV_MATCH}'\n--- ${CSV}:\n${csv}")
  endif()
endif()
message(STATUS "exit status ${rc} as expected")
