# Warning flags for ew's own CUDA targets (tests, benchmarks, examples); consumers get none of this.
function(ew_target_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>)
  if(EW_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Werror>
      $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
  endif()
endfunction()
