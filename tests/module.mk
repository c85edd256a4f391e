# Tests by kind (tests/README.md). Every tests/unit/test_*.c is a cmocka
# program, every tests/bench/bench_*.c a benchmark, every
# tests/fuzz/fuzz_*.c a libFuzzer target: adding one is adding its file.
TESTSUPPORT_SRCS += \
	tests/support/json.c \
	tests/support/testutil.c

TESTS += $(patsubst tests/%.c,%,$(wildcard tests/unit/test_*.c))

# Helper of the mail integration tests (tests/e2e/mail/run.sh), not a unit test.
TESTS += e2e/mail/mailit

BENCHES += $(patsubst tests/%.c,%,$(wildcard tests/bench/bench_*.c))

# Helpers of tests/bench: timeit times a command from fork to exit (bench_run.sh);
# floor measures what the machine allows, the figures' floors (bench.sh).
BENCH_HELPERS += bench/timeit
BENCH_HELPERS += bench/floor

FUZZERS += $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
