package io.jobinfo.store.cli;

import io.jobinfo.store.config.ByteSize;
import picocli.CommandLine;

/** Reads sizes such as {@code 200KiB}, {@code 16MiB} or plain bytes. */
public final class ByteSizeConverter implements CommandLine.ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
        try {
            return ByteSize.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
