# The job of "redlock run" (Job.java starts it as: perl -e THIS LIFELINE GRACE_MS COMMAND [ARGUMENT...]).
#
# 1. It makes a new session, so COMMAND and everything COMMAND forks share one process group, led by this pid:
#    redlock stops the job by signalling that group, and releases the lock only once the group is empty.
# 2. It starts a watcher, outside the job's group and outside its ancestry, holding the read end of LIFELINE, a
#    FIFO whose only write end redlock holds. "done" on it means redlock has stopped the job itself: the watcher
#    exits. End of file means redlock died (kill -9, the OOM killer, a crash): the watcher sends SIGTERM to the
#    job's group, SIGKILL after GRACE_MS, and exits.
# 3. It becomes COMMAND (exec, same pid), or exits 127 if COMMAND cannot be started.
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
    $SIG{$_} = 'IGNORE' for qw(INT TERM HUP QUIT PIPE);
    open(STDIN, '<', '/dev/null');
    open(STDOUT, '>', '/dev/null'); # it must not hold open a pipe that someone reads redlock's output from
    unlink $lifeline;
    my $said = '';
    while (1) {
        my $n = sysread($line, my $chunk, 64);
        if (!defined $n) {
            next if $!{EINTR};
            last;
        }
        last if $n == 0;            # end of file: redlock is gone
        $said .= $chunk;
        POSIX::_exit(0) if $said =~ /^done$/m;
    }
    exit 0 unless kill 0, -$group;
    print STDERR "redlock: redlock exited while the command ran; sent SIGTERM to the command's process group"
        . " (SIGKILL in ${grace_ms}ms)\n";
    kill 'TERM', -$group;
    for (my $waited = 0; $waited < $grace_ms && kill(0, -$group); $waited += 20) {
        select(undef, undef, undef, 0.02);
    }
    kill 'KILL', -$group;
    POSIX::_exit(0);
}
waitpid($first, 0);
close($line);
exec { $command[0] } @command;
print STDERR "redlock: cannot start $command[0]: $!\n";
POSIX::_exit(127);
