/**
 * The entry point of the JMH microbenchmarks ({@code JmhMain}); the benchmarks themselves sit in the package of
 * what they measure, and the side-by-side harness in this module's test sources ({@code redlock bench}).
 */
package io.redlock.bench;
