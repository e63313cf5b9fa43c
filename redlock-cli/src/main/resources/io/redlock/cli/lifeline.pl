# The watcher's end of a lifeline (Lifeline.java holds the other end), shared by the watchers of "redlock run"
# (job.pl) and "redlock servers" (servers.pl): PerlBinary.script puts this file before theirs.
#
# LIFELINE is a FIFO whose only write end redlock holds. Redlock writes one line at a time:
#   "valid MS"  the lock is valid for MS more milliseconds (redlock run: at the start and after each extension)
#   "stopping"  redlock is stopping what is watched itself: forget the validity, keep watching
#   "done"      redlock ended what is watched itself: exit
# End of file means redlock died (kill -9, the OOM killer, a crash); a validity that runs out without a new one means
# redlock stalled (SIGSTOP, a frozen VM) past the lock's expiry.
use strict;
use warnings;
use POSIX ();
use Fcntl qw(O_RDONLY O_NONBLOCK F_GETFL F_SETFL);

# LIFELINE opened for reading: non-blocking, so the open cannot hang if redlock died before it; then blocking reads.
sub open_lifeline {
    my ($path) = @_;
    sysopen(my $line, $path, O_RDONLY | O_NONBLOCK) or die "redlock: cannot open $path: $!\n";
    fcntl($line, F_SETFL, fcntl($line, F_GETFL, 0) & ~O_NONBLOCK) or die "redlock: fcntl: $!\n";
    return $line;
}

# Makes this forked process a watcher that what is aimed at redlock or its job does not reach: a session of its own
# (no signal to the terminal's or the job's group), the stop signals ignored, no standard input or output (it must not
# hold open a pipe that someone reads redlock's output from); NAME is what ps shows instead of the whole script.
sub detach {
    my ($name) = @_;
    POSIX::setsid();
    $0 = $name;
    $SIG{$_} = 'IGNORE' for qw(INT TERM HUP QUIT PIPE);
    open(STDIN, '<', '/dev/null');
    open(STDOUT, '>', '/dev/null');
}

# Milliseconds on a monotonic clock (times(2): clock ticks since an arbitrary point).
sub now_ms {
    my ($ticks) = POSIX::times();
    return $ticks * 1000 / POSIX::sysconf(POSIX::_SC_CLK_TCK());
}

# Reads the lifeline LINE until what is watched must be stopped (returns why) or is over (exits).
sub watch {
    my ($line) = @_;
    my ($said, $deadline) = ('', undef);
    while (1) {
        my $timeout = defined $deadline ? ($deadline - now_ms()) / 1000 : undef;
        return "the lock expired while redlock did not answer" if defined $timeout && $timeout <= 0;
        my $ready = '';
        vec($ready, fileno($line), 1) = 1;
        my $found = select($ready, undef, undef, $timeout);
        if ($found < 0) {
            next if $!{EINTR};
            return "redlock's lifeline failed: $!";
        }
        next if $found == 0;        # the deadline is checked at the top
        my $n = sysread($line, my $chunk, 256);
        if (!defined $n) {
            next if $!{EINTR};
            return "redlock's lifeline failed: $!";
        }
        return "redlock exited while the command ran" if $n == 0;
        $said .= $chunk;
        while ($said =~ s/^([^\n]*)\n//) {
            my $message = $1;
            POSIX::_exit(0) if $message eq 'done';
            $deadline = undef if $message eq 'stopping';
            $deadline = now_ms() + $1 if $message =~ /^valid (\d+)$/;
        }
    }
}
