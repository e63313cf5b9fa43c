package io.redlock;

import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.tracing.TraceContext;
import io.lettuce.core.tracing.TraceContextProvider;
import io.lettuce.core.tracing.Tracer;
import io.lettuce.core.tracing.TracerProvider;
import io.lettuce.core.tracing.Tracing;
import java.net.SocketAddress;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A Lettuce {@link Tracing} that traces nothing but keeps the stack of every command handed to Lettuce on a caller's
 * thread: Lettuce asks for the trace context on the thread that dispatches the command, before any byte is written.
 */
final class StackAtDispatch implements Tracing {

    private static final Tracer.Span SPAN = new Tracer.Span() {
        @Override
        public Tracer.Span start(RedisCommand<?, ?, ?> command) {
            return this;
        }

        @Override
        public Tracer.Span name(String name) {
            return this;
        }

        @Override
        public Tracer.Span annotate(String value) {
            return this;
        }

        @Override
        public Tracer.Span tag(String key, String value) {
            return this;
        }

        @Override
        public Tracer.Span error(Throwable throwable) {
            return this;
        }

        @Override
        public Tracer.Span remoteEndpoint(Endpoint endpoint) {
            return this;
        }

        @Override
        public void finish() {
        }
    };

    private static final Tracer TRACER = new Tracer() {
        @Override
        public Span nextSpan() {
            return SPAN;
        }

        @Override
        public Span nextSpan(TraceContext context) {
            return SPAN;
        }
    };

    private final Queue<List<StackWalker.StackFrame>> stacks = new ConcurrentLinkedQueue<>();

    /** The stacks seen so far, innermost frame first, in the order the commands were dispatched. */
    Queue<List<StackWalker.StackFrame>> stacks() {
        return stacks;
    }

    @Override
    public TraceContextProvider initialTraceContextProvider() {
        return () -> {
            stacks.add(StackWalker.getInstance().walk(frames -> frames.toList()));
            return TraceContext.EMPTY;
        };
    }

    @Override
    public TracerProvider getTracerProvider() {
        return () -> TRACER;
    }

    @Override
    public boolean isEnabled() {
        return true;
    }

    @Override
    public boolean includeCommandArgsInSpanTags() {
        return false;
    }

    @Override
    public Endpoint createEndpoint(SocketAddress address) {
        return new Endpoint() {
        };
    }
}
