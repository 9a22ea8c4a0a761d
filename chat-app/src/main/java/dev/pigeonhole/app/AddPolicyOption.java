package dev.pigeonhole.app;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.consent.AddPolicy;
import picocli.CommandLine;

/** Reads {@code --add-policy}: the names are the domain's ({@link AddPolicy#parse}), and so is its refusal. */
final class AddPolicyOption implements CommandLine.ITypeConverter<AddPolicy> {

    @Override
    public AddPolicy convert(String value) {
        try {
            return AddPolicy.parse(value);
        } catch (InvalidInputException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
