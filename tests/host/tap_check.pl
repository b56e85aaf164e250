#!/usr/bin/perl
# SPDX-License-Identifier: MIT
#
# tap_check.pl - checks that a file is a valid TAP stream with the counts
# it should have, with perl's TAP::Parser (the parser of prove):
#
#	tests/host/tap_check.pl FILE PASSED FAILED [bail]
#
# The stream must say `TAP version 13`, have a plan that matches the tests
# it runs, no parse error (a test out of sequence is one), no SKIP or TODO
# directive (vaccel's runners print none), and PASSED passing and FAILED
# failing tests.  With `bail`, it must instead bail out, with no test.
# Prints what is wrong and exits 1; exits 0 silently when all is right.
use strict;
use warnings;
use TAP::Parser;

my ($file, $want_pass, $want_fail, $bail) = @ARGV;
die "usage: tap_check.pl FILE PASSED FAILED [bail]\n" unless defined $want_fail;
open(my $fh, '<', $file) or die "$file: $!\n";
my $tap = do { local $/; <$fh> };
close($fh);

my $parser = TAP::Parser->new({ tap => $tap });
my (@why, $bailed);
while (my $r = $parser->next) {
	$bailed = 1 if $r->is_bailout;
	push @why, 'a directive: ' . $r->as_string
		if $r->is_test && ($r->has_skip || $r->has_todo);
}
if ($bail) {
	push @why, 'no bail out' unless $bailed;
	push @why, 'tests run: ' . $parser->tests_run if $parser->tests_run;
} else {
	push @why, 'bailed out' if $bailed;
	push @why, 'version ' . $parser->version . ', not 13' if $parser->version != 13;
	push @why, 'no plan' unless defined $parser->plan && length $parser->plan;
	push @why, 'plan ' . ($parser->tests_planned // 'none') . ', tests run ' .
		$parser->tests_run unless $parser->is_good_plan;
	push @why, 'parse errors: ' . join('; ', $parser->parse_errors) if $parser->parse_errors;
	my $passed = scalar $parser->passed;
	my $failed = scalar $parser->failed;
	push @why, "$passed passed, not $want_pass" if $passed != $want_pass;
	push @why, "$failed failed, not $want_fail" if $failed != $want_fail;
}
if (@why) {
	print "$file: ", join('; ', @why), "\n";
	exit 1;
}
exit 0;
