# The watcher of "redlock servers" (ServersWatcher starts LIFELINE.PL+THIS with PerlBinary.process: LIFELINE PID DIR
# [PID DIR...]).
#
# It holds the read end of LIFELINE (lifeline.pl), in a session of its own (Ctrl-C in redlock's terminal does not reach
# it), and waits. "done" means redlock stopped its servers itself: it exits. End of file means redlock died (kill -9,
# the OOM killer, a crash): it stops each server that is still a redis-server (SIGTERM, SIGKILL after 2 s) and
# removes its folder, then exits.
use File::Path qw(remove_tree);

my ($lifeline, %folders) = @ARGV;
my $line = open_lifeline($lifeline);
my $watcher = fork() // die "redlock: cannot fork the servers' watcher: $!\n";
POSIX::_exit(0) if $watcher;    # redlock waits for this: the read end is open from now on
detach("redlock servers watcher");
open(STDERR, '>', '/dev/null'); # redlock read its start-up errors through this pipe
unlink $lifeline;
watch($line);
my @left = grep { is_server($_) } keys %folders;
kill 'TERM', @left;
for my $tick (1 .. 40) {
    @left = grep { is_server($_) } @left;
    last unless @left;
    select(undef, undef, undef, 0.05);
}
kill 'KILL', @left;
for my $tick (1 .. 100) {
    last unless grep { is_server($_) } @left;
    select(undef, undef, undef, 0.05);
}
remove_tree($_) for values %folders;
POSIX::_exit(0);

# Whether PID is still a redis-server (not gone, and not a pid the system gave to another process since).
sub is_server {
    my ($pid) = @_;
    open(my $comm, '<', "/proc/$pid/comm") or return 0;
    my $name = <$comm> // '';
    chomp $name;
    return $name eq 'redis-server';
}
