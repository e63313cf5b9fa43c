package io.redlock.spring;

import io.redlock.LockTarget;
import io.redlock.LockTarget.Kind;
import java.util.ArrayList;
import java.util.List;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.expression.ExpressionParser;
import org.springframework.expression.ParseException;

/**
 * What a {@link Locked @Locked} method holds, parsed once from its annotation: the kind of lock and the resource
 * expressions. How the attributes combine into a kind of lock is decided in {@link #parse} and nowhere else, and
 * {@link #evaluate} builds the {@link LockTarget} of a call in one place.
 */
record LockedTarget(Kind kind, List<String> texts, List<Expression> expressions, int permits) {

    /**
     * The target {@code locked} names: {@code resource} alone (with its {@code mode}, or a permit of its semaphore
     * with {@code permits}), or {@code resources} alone (several at once, exclusive). Other combinations, and an entry that is blank or not SpEL, are refused naming
     * the attributes.
     */
    static LockedTarget parse(Locked locked, ExpressionParser parser, String description) {
        boolean one = !locked.resource().isBlank();
        boolean several = locked.resources().length > 0;
        if (one == several) {
            throw new LockedAnnotationException(description, List.of("resource", "resources"), one
                    ? "resource and resources are both set; set resource for one lock, resources for several at once"
                    : "no resource; set resource (e.g. \"'orders:' + #order.id\"), or resources for several at once",
                    null);
        }
        if (several && locked.mode() != LockMode.EXCLUSIVE) {
            throw new LockedAnnotationException(description, List.of("mode", "resources"), "mode = "
                    + locked.mode() + " locks one resource, not several at once; use resource, or mode = EXCLUSIVE",
                    null);
        }
        if (locked.permits() != 0 && (several || locked.mode() != LockMode.EXCLUSIVE || locked.permits() < 0)) {
            throw new LockedAnnotationException(description, List.of("permits", several ? "resources" : "mode"),
                    "permits = " + locked.permits() + " holds a permit of one resource's semaphore: set it to 1 or"
                            + " more, with resource and mode = EXCLUSIVE", null);
        }
        Kind kind = several ? Kind.SEVERAL : locked.permits() > 0 ? Kind.PERMIT : switch (locked.mode()) {
            case EXCLUSIVE -> Kind.LOCK;
            case READ -> Kind.READ;
            case WRITE -> Kind.WRITE;
        };
        List<String> texts = several ? List.of(locked.resources()) : List.of(locked.resource());
        List<Expression> expressions = new ArrayList<>(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            String text = texts.get(i);
            String attribute = attribute(kind, i);
            if (text.isBlank()) {
                throw new LockedAnnotationException(description, List.of("resources"), attribute
                        + " must not be blank", null);
            }
            try {
                expressions.add(parser.parseExpression(text));
            } catch (ParseException e) {
                throw new LockedAnnotationException(description, List.of(several ? "resources" : "resource"),
                        attribute + " '" + text + "' is not a SpEL expression (" + e.getMessage()
                                + "); quote a fixed name: \"'my-resource'\"", e);
            }
        }
        return new LockedTarget(kind, texts, List.copyOf(expressions), locked.permits());
    }

    /**
     * The lock of one call: every expression evaluated in {@code context}, in the order written.
     *
     * @throws IllegalArgumentException if an expression fails, or gives null or a blank name
     */
    LockTarget evaluate(EvaluationContext context, String description) {
        List<String> names = new ArrayList<>(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            String what = attribute(kind, i) + " '" + texts.get(i) + "'";
            Object value;
            try {
                value = expressions.get(i).getValue(context);
            } catch (EvaluationException e) {
                throw new IllegalArgumentException(description + ": " + what + " could not be evaluated: "
                        + e.getMessage(), e);
            }
            if (value == null || value.toString().isBlank()) {
                throw new IllegalArgumentException(description + ": " + what + " evaluated to "
                        + (value == null ? "null" : "a blank name"));
            }
            names.add(value.toString());
        }
        return target(names);
    }

    private LockTarget target(List<String> names) {
        return switch (kind) {
            case LOCK -> LockTarget.of(names.get(0));
            case SEVERAL -> LockTarget.all(names);
            case READ -> LockTarget.read(names.get(0));
            case WRITE -> LockTarget.write(names.get(0));
            case PERMIT -> LockTarget.permit(names.get(0), permits);
        };
    }

    /** How the annotation names the {@code i}th expression: {@code resource}, or {@code resources[i]}. */
    private static String attribute(Kind kind, int i) {
        return kind == Kind.SEVERAL ? "resources[" + i + "]" : "resource";
    }
}
