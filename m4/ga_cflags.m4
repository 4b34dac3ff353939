# ga_cflags.m4 - add compiler flags only where the compiler accepts them.
#
# GA_ADD_CFLAGS([VARIABLE], [FLAG ...]) appends to VARIABLE each FLAG that
# $CC compiles an empty program with, under -Werror so that a flag the
# compiler merely warns about is left out too.
AC_DEFUN([GA_ADD_CFLAGS], [
  for ga_flag in $2; do
    AC_MSG_CHECKING([whether $CC accepts $ga_flag])
    ga_save_CFLAGS=$CFLAGS
    CFLAGS="$CFLAGS -Werror $ga_flag"
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
      [AC_MSG_RESULT([yes]); $1="$$1 $ga_flag"],
      [AC_MSG_RESULT([no])])
    CFLAGS=$ga_save_CFLAGS
  done
])
