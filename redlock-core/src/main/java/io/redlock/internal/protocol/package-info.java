/**
 * The lock protocol as the nodes run it; not exported. {@code Scripts} holds the Lua scripts (resources under
 * {@code lua/}, each with a header naming its KEYS, ARGV and reply) and, next to each, the one request record of its
 * ARGV; {@code HeldKeys} and its kinds ({@code Keys} for one resource, {@code KeysOfAll} for several,
 * {@code ReaderKeys} and {@code PermitKeys} for shared locks) name the keys each script takes; {@code FencedReply}
 * decodes the fenced acquire's reply; {@code ScriptSettings} is the configuration as the scripts take it. It uses the
 * node layer only for the {@code Script} type and a round's result.
 */
package io.redlock.internal.protocol;
