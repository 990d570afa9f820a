package io.jobinfo.store.cli.convert;

import picocli.CommandLine;

/**
 * An option converter over one of the project's parsers: the parser's {@link IllegalArgumentException}, whose message
 * names the value and the syntax, becomes picocli's conversion error.
 */
public abstract class ParsingConverter<T> implements CommandLine.ITypeConverter<T> {

    /** @throws IllegalArgumentException the value does not parse */
    protected abstract T parse(String value);

    @Override
    public final T convert(String value) {
        try {
            return parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
