package io.jobinfo.store.cli;

import io.jobinfo.store.cli.convert.ParsingConverter;
import io.jobinfo.store.config.ByteSize;

/** Reads sizes such as {@code 200KiB}, {@code 16MiB} or plain bytes. */
public final class ByteSizeConverter extends ParsingConverter<Long> {
    @Override
    protected Long parse(String value) {
        return ByteSize.parse(value);
    }
}
