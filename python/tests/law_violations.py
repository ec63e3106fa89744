"""What the tests of a broken kernel share: a run of one law that must fail."""

import pytest

import osvs


def failed_law(check, kernel, law, **declaration):
    """The result of `law` on `kernel`, where ``check(kernel, laws=[law], **declaration)``
    (osvs.check_attention, osvs.check_merge, ...) must raise osvs.LawViolation; the test fails
    where it does not."""
    with pytest.raises(osvs.LawViolation) as e:
        check(kernel, laws=[law], **declaration)
    return e.value.result[law]
