package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.RequestSpans;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Objects;

/**
 * A span around every call of an interface, named {@code Interface.method} ({@code SendMessage.send},
 * {@code Chats.send}): one decorator for every use case and every driven port, since all of them are
 * interfaces the composition root wires by hand. Only a call made inside a trace gets a span, so
 * what runs in the background (pruning presence, the readings behind /health) starts none of its
 * own; and a server without tracing wraps nothing at all.
 */
final class Traced implements InvocationHandler {

    private final Object target;
    private final String prefix;
    private final Tracer tracer;
    private final SpanKind kind;
    private final Attributes attributes;

    private Traced(Object target, String prefix, Tracer tracer, SpanKind kind, Attributes attributes) {
        this.target = target;
        this.prefix = prefix;
        this.tracer = tracer;
        this.kind = kind;
        this.attributes = attributes;
    }

    /** {@code target} as {@code type}, each call of it a span of {@code kind} carrying {@code attributes}. */
    static <T> T wrap(Class<T> type, T target, Tracer tracer, SpanKind kind, Attributes attributes) {
        if (!type.isInterface()) {
            throw new IllegalArgumentException(type + " is no interface");
        }
        Traced handler = new Traced(Objects.requireNonNull(target, "target"), type.getSimpleName() + ".",
                Objects.requireNonNull(tracer, "tracer"), Objects.requireNonNull(kind, "kind"),
                Objects.requireNonNull(attributes, "attributes"));
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
    }

    /** Whether {@code candidate} is one of these wrappers, for the test that tracing off wraps nothing. */
    static boolean isTraced(Object candidate) {
        return Proxy.isProxyClass(candidate.getClass()) && Proxy.getInvocationHandler(candidate) instanceof Traced;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (method.getDeclaringClass() == Object.class) {
            return switch (method.getName()) {
                case "equals" -> proxy == args[0];
                case "hashCode" -> System.identityHashCode(proxy);
                default -> target.toString();
            };
        }
        if (!Span.current().getSpanContext().isValid()) {
            return call(method, args);
        }
        Span span = tracer.spanBuilder(prefix + method.getName())
                .setSpanKind(kind)
                .setAllAttributes(attributes)
                .startSpan();
        RequestSpans.tagRequestId(span);
        try (Scope current = span.makeCurrent()) {
            return call(method, args);
        } catch (Throwable failure) {
            span.recordException(failure);
            span.setStatus(StatusCode.ERROR);
            throw failure;
        } finally {
            span.end();
        }
    }

    /** The target's own answer or exception, never reflection's wrapper around it. */
    private Object call(Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
