/** `/privacy`: the legal page of `content/legal/privacy.md` (`components/LegalPage.tsx`). */
import { LegalPage, legalPageHandler } from "@/components/LegalPage.tsx";

export const handler = legalPageHandler("privacy");
export default LegalPage;
