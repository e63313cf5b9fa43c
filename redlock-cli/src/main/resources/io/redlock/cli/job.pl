# The job of "redlock run" (Job.java starts it as: perl -e THIS LIFELINE GRACE_MS COMMAND [ARGUMENT...]).
#
# 1. It makes a new session, so COMMAND and everything COMMAND forks share one process group, led by this pid:
#    redlock stops the job by signalling that group, and releases the lock only once the group is empty.
# 2. It starts a watcher, outside the job's group and outside its ancestry, holding the read end of LIFELINE, a
#    FIFO whose only write end redlock holds. Redlock writes one line at a time:
#      "valid MS"  the lock is valid for MS more milliseconds (sent at the start and after each extension)
#      "stopping"  redlock is stopping the job itself: forget the validity, keep watching
#      "done"      the job is over: exit
#    End of file means redlock died (kill -9, the OOM killer, a crash); a validity that runs out without a new one
#    means redlock stalled (SIGSTOP, a frozen VM) past the lock's expiry. Either way the watcher sends SIGTERM to the
#    job's group, SIGKILL after GRACE_MS, and exits.
# 3. It becomes COMMAND (exec, same pid), or exits as a shell would if COMMAND cannot be started: 126 if it is
#    there but cannot be run (not executable, a directory, not a program), 127 otherwise (not found).
use strict;
use warnings;
use POSIX ();
use Fcntl qw(O_RDONLY O_NONBLOCK F_GETFL F_SETFL);

my ($lifeline, $grace_ms, @command) = @ARGV;
POSIX::setsid() or die "redlock: cannot start a session for the job: $!\n";
my $group = $$;
# non-blocking, so the open cannot hang if redlock died before it; then blocking reads
sysopen(my $line, $lifeline, O_RDONLY | O_NONBLOCK) or die "redlock: cannot open $lifeline: $!\n";
fcntl($line, F_SETFL, fcntl($line, F_GETFL, 0) & ~O_NONBLOCK) or die "redlock: fcntl: $!\n";

my $first = fork() // die "redlock: cannot fork the watcher: $!\n";
if ($first == 0) {
    my $watcher = fork() // POSIX::_exit(1);
    POSIX::_exit(0) if $watcher;    # the watcher is re-parented: the job never sees it as a child
    POSIX::setpgid(0, 0);           # and signals to the job's group do not reach it
    $0 = "redlock run watcher";     # what ps shows, instead of this whole script
    $SIG{$_} = 'IGNORE' for qw(INT TERM HUP QUIT PIPE);
    open(STDIN, '<', '/dev/null');
    open(STDOUT, '>', '/dev/null'); # it must not hold open a pipe that someone reads redlock's output from
    unlink $lifeline;
    stop_group(watch());
    POSIX::_exit(0);
}
waitpid($first, 0);
close($line);
{ no warnings 'exec'; exec { $command[0] } @command; }
my $cannot_run = $!{EACCES} || $!{ENOEXEC} || $!{EISDIR};
print STDERR "redlock: cannot start $command[0]: $!\n";
POSIX::_exit($cannot_run ? 126 : 127);

# Milliseconds on a monotonic clock (times(2): clock ticks since an arbitrary point).
sub now_ms {
    my ($ticks) = POSIX::times();
    return $ticks * 1000 / POSIX::sysconf(POSIX::_SC_CLK_TCK());
}

# Reads the lifeline until the job must be stopped (returns why) or is over (exits).
sub watch {
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

sub stop_group {
    my ($why) = @_;
    return unless kill 0, -$group;
    print STDERR "redlock: $why; sent SIGTERM to the command's process group (SIGKILL in ${grace_ms}ms)\n";
    kill 'TERM', -$group;
    for (my $waited = 0; $waited < $grace_ms && kill(0, -$group); $waited += 20) {
        select(undef, undef, undef, 0.02);
    }
    kill 'KILL', -$group;
}
