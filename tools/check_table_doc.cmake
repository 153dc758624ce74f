# The sample table of docs/benchmarks.md ("## Reading the table": its line
# that starts with "back ") must have the columns of the table `tridi bench`
# prints (the line of its output that starts with "back "), in order.
#   cmake -DDOC=docs/benchmarks.md -DCMD=prog|arg|arg -P check_table_doc.cmake
file(STRINGS "${DOC}" doc_lines REGEX "^back ")
list(LENGTH doc_lines count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "${DOC}: ${count} lines start with 'back ', expected the one sample header")
endif()
string(REPLACE "|" ";" cmd "${CMD}")
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "exit status ${rc}\n${out}${err}")
endif()
string(REGEX MATCH "\nback [^\n]*" printed "\n${out}")
string(STRIP "${printed}" printed)
# the columns, whitespace aside ("base time" is one column of two words)
string(REGEX REPLACE "[ \t]+" " " doc_cols "${doc_lines}")
string(REGEX REPLACE "[ \t]+" " " out_cols "${printed}")
if(NOT doc_cols STREQUAL out_cols)
  message(FATAL_ERROR "${DOC}'s sample table has the columns\n  ${doc_cols}\n"
                      "but tridi bench prints\n  ${out_cols}")
endif()
message(STATUS "sample table columns as printed: ${out_cols}")
