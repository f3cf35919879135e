/** `/refunds`: the legal page of `content/legal/refunds.md` (`components/LegalPage.tsx`). */
import { LegalPage, legalPageHandler } from "@/components/LegalPage.tsx";

export const handler = legalPageHandler("refunds");
export default LegalPage;
