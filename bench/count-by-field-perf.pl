# count-by-field-perf.pl: bench/script-peers.sh's handler for `perf script -s`: perf's
# Perl scripting, sched:sched_switch events counted by prev_comm, printed at the end as
# `COUNT NAME` lines sorted by name (bench/count-by-field-perf.py's job, in Perl).
# Perf::Trace::Core must be loaded: perf calls its define_flag_* subs for sched_switch's
# prev_state flags before the first event, and perf 6.1 crashes (segfault or "malloc():
# unsorted double linked list corrupted") when they are missing.
use lib "$ENV{'PERF_EXEC_PATH'}/scripts/perl/Perf-Trace-Util/lib";
use Perf::Trace::Core;
use strict;
use warnings;

my %counts;

sub sched::sched_switch
{
	my ($event_name, $context, $common_cpu, $common_secs, $common_nsecs, $common_pid,
	    $common_comm, $common_callchain, $prev_comm) = @_;
	$counts{$prev_comm}++;
}

sub trace_end
{
	print "$counts{$_} $_\n" for sort keys %counts;
}
