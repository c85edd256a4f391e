TESTSUPPORT_SRCS += \
	tests/support/json.c \
	tests/support/testutil.c

TESTS += \
	test_adjudicate \
	test_commands \
	test_lib \
	test_map \
	test_parser \
	test_store

BENCHES += \
	bench_adjudicate \
	bench_parser

FUZZERS += \
	fuzz_parser
